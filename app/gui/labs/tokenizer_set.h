// Tokenizer lab: the tokenizers the lab compares, in order: the loaded model's (first, while a
// model is loaded), the reference tokenizers people compare (GPT-4, GPT-4o, BERT: fetched by
// sample_models/fetch.sh), the sample tokenizer trained from the bundled corpus, files the user
// added and models trained in the lab. Every view of the lab shows this one list.
#pragma once

#include <QObject>
#include <QString>
#include <QVector>

#include <memory>

namespace lmscope::tok {
class Tokenizer;
}

namespace lmscope::gui::labs {

struct TokenizerEntry {
    enum class Kind { Model, Reference, Sample, File, Trained };
    Kind kind = Kind::File;
    QString name;    // short, shown as the column / row title
    QString detail;  // the tokenizer's own description and where it came from
    std::shared_ptr<const tok::Tokenizer> tokenizer;
};

class TokenizerSet : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    const QVector<TokenizerEntry>& entries() const { return entries_; }
    qsizetype size() const { return entries_.size(); }
    const TokenizerEntry& at(qsizetype i) const { return entries_.at(i); }

    // Replaces the model's entry (first); a null tokenizer removes it.
    void setModel(const QString& name, std::shared_ptr<const tok::Tokenizer> tokenizer);
    // Replaces the reference entries (after the model's).
    void setReferences(QVector<TokenizerEntry> entries);
    // Replaces the sample entry (after the references).
    void setSample(TokenizerEntry entry);
    void add(TokenizerEntry entry);
    void remove(qsizetype i);

signals:
    void changed();

private:
    qsizetype indexOf(TokenizerEntry::Kind kind) const;  // -1: none
    // Where an entry of the model, reference or sample kind goes: after those of earlier kinds.
    qsizetype insertionPoint(TokenizerEntry::Kind kind) const;
    QVector<TokenizerEntry> entries_;
};

}  // namespace lmscope::gui::labs
