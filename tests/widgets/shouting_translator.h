// A translator for the widget tests' language-change checks: it writes every source string in
// capitals, so a text that goes through tr() changes when it is installed and changes back when
// it is removed.
#pragma once

#include <QString>
#include <QTranslator>

namespace lmscope::testing {

class Shouting : public QTranslator {
public:
    bool isEmpty() const override { return false; }
    QString translate(const char*, const char* source, const char* = nullptr, int = -1) const override {
        return QString::fromUtf8(source).toUpper();
    }
};

}  // namespace lmscope::testing
