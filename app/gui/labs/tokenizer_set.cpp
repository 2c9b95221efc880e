#include "gui/labs/tokenizer_set.h"

#include "tokenizer/tokenizer.h"

namespace lmscope::gui::labs {

qsizetype TokenizerSet::indexOf(TokenizerEntry::Kind kind) const {
    for (qsizetype i = 0; i < entries_.size(); ++i)
        if (entries_[i].kind == kind) return i;
    return -1;
}

void TokenizerSet::setModel(const QString& name, std::shared_ptr<const tok::Tokenizer> tokenizer) {
    const qsizetype at = indexOf(TokenizerEntry::Kind::Model);
    if (at >= 0) entries_.removeAt(at);
    if (tokenizer) {
        TokenizerEntry e;
        e.kind = TokenizerEntry::Kind::Model;
        e.name = name;
        e.detail = tr("the loaded model: %1").arg(QString::fromStdString(tokenizer->describe()));
        e.tokenizer = std::move(tokenizer);
        entries_.insert(0, std::move(e));
    }
    emit changed();
}

qsizetype TokenizerSet::insertionPoint(TokenizerEntry::Kind kind) const {
    qsizetype at = 0;
    while (at < entries_.size() && entries_[at].kind <= kind) ++at;
    return at;
}

void TokenizerSet::setReferences(QVector<TokenizerEntry> entries) {
    entries_.removeIf([](const TokenizerEntry& e) { return e.kind == TokenizerEntry::Kind::Reference; });
    qsizetype at = insertionPoint(TokenizerEntry::Kind::Reference);
    for (TokenizerEntry& e : entries) {
        e.kind = TokenizerEntry::Kind::Reference;
        entries_.insert(at++, std::move(e));
    }
    emit changed();
}

void TokenizerSet::setSample(TokenizerEntry entry) {
    entry.kind = TokenizerEntry::Kind::Sample;
    const qsizetype at = indexOf(TokenizerEntry::Kind::Sample);
    if (at >= 0) entries_[at] = std::move(entry);
    else entries_.insert(insertionPoint(TokenizerEntry::Kind::Sample), std::move(entry));
    emit changed();
}

void TokenizerSet::add(TokenizerEntry entry) {
    entries_.push_back(std::move(entry));
    emit changed();
}

void TokenizerSet::remove(qsizetype i) {
    if (i < 0 || i >= entries_.size()) return;
    entries_.removeAt(i);
    emit changed();
}

}  // namespace lmscope::gui::labs
