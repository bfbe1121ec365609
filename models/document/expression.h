// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Arithmetic over series, for derived series such as
//   pg.db.tup_returned.rate / pg.db.blks_hit.rate
// Grammar: expr := term (('+'|'-') term)*; term := factor (('*'|'/') factor)*;
// factor := number | metric | '(' expr ')' | '-' factor. A metric name is letters,
// digits, '_', '.', ':' and starts with a letter or '_'.
// Expressions come from dashboard files, which are untrusted: the parser recurses once
// per '(' and unary '-', so their nesting is bounded, and so is the text.
#pragma once

#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

namespace Headroom {

class Expression
{
public:
    static constexpr qsizetype MaximumLength = 4096; // characters
    static constexpr int MaximumDepth = 64; // nested parentheses and unary minus signs

    // nullopt and *error ("position 7: expected ')'") when text is not an expression.
    static std::optional<Expression> parse(const QString &text, QString *error);

    // Metric names the expression reads, each once, in order of appearance.
    const QStringList &metrics() const { return m_metrics; }
    const QString &text() const { return m_text; }

    // nullopt when a metric has no value or the result is not finite (x / 0): a derived
    // series has a gap there rather than an infinite spike.
    using Resolver = std::function<std::optional<double>(const QString &metric)>;
    std::optional<double> evaluate(const Resolver &resolve) const;

    struct Node;

private:
    QString m_text;
    QStringList m_metrics;
    std::shared_ptr<const Node> m_root; // immutable: copies share it
};

} // namespace Headroom
