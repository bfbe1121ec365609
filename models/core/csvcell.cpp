// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/csvcell.h"

#include <QLocale>
#include <QRegularExpression>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// What a spreadsheet would evaluate: OWASP's list of leading characters.
bool startsLikeFormula(const QString &field)
{
    if (field.isEmpty())
        return false;
    switch (field.front().unicode()) {
    case u'=':
    case u'+':
    case u'-':
    case u'@':
    case u'\t':
    case u'\r':
        return true;
    default:
        return false;
    }
}

// A decimal number and nothing else: "-3.5", "+1e-9". No spaces, no "inf" or "nan",
// which a spreadsheet would not read as numbers.
bool isPlainNumber(const QString &field)
{
    static const QRegularExpression number(
        u"\\A[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?\\z"_s);
    return number.match(field).hasMatch();
}

} // namespace

QString csvText(const QString &field)
{
    const bool formula = startsLikeFormula(field) && !isPlainNumber(field);
    if (!formula && !field.contains(u',') && !field.contains(u'"') && !field.contains(u'\n')
        && !field.contains(u'\r'))
        return field;
    QString quoted = field;
    quoted.replace(u"\""_s, u"\"\""_s);
    // The quote makes the spreadsheet show the text as it is, and the cell's quotes
    // keep the quote inside the cell for readers that strip a bare leading one.
    const QString prefix = formula ? u"\"'"_s : u"\""_s;
    return prefix + quoted + u'"';
}

QString csvNumber(double value)
{
    if (!std::isfinite(value))
        return QString();
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

} // namespace Headroom
