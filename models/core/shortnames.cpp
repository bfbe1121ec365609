// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/shortnames.h"

#include <QHash>
#include <QSet>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// Where names are cut: between words of a series name ("pg.db.commits.rate app",
// "public.orders", "/var/lib", "datname=app"). Not '_' or '-', which join the words of
// one identifier ("orders_p1").
bool isSeparator(QChar c)
{
    return c == u' ' || c == u'.' || c == u'/' || c == u':' || c == u',' || c == u'=' || c == u';';
}

// The first n characters of text, one fewer if that would split a surrogate pair.
qsizetype headLength(const QString &text, qsizetype n)
{
    if (n > 0 && n < text.size() && text.at(n - 1).isHighSurrogate())
        --n;
    return n;
}

// The last n characters, one fewer if that would split a surrogate pair.
qsizetype tailLength(const QString &text, qsizetype n)
{
    if (n > 0 && n < text.size() && text.at(text.size() - n).isLowSurrogate())
        --n;
    return n;
}

qsizetype commonPrefixLength(const QStringList &names)
{
    qsizetype n = names.constFirst().size();
    for (const QString &name : names) {
        n = std::min(n, name.size());
        for (qsizetype i = 0; i < n; ++i) {
            if (name.at(i) != names.constFirst().at(i)) {
                n = i;
                break;
            }
        }
    }
    return n;
}

qsizetype commonSuffixLength(const QStringList &names)
{
    const QString &first = names.constFirst();
    qsizetype n = first.size();
    for (const QString &name : names) {
        n = std::min(n, name.size());
        for (qsizetype i = 1; i <= n; ++i) {
            if (name.at(name.size() - i) != first.at(first.size() - i)) {
                n = i - 1;
                break;
            }
        }
    }
    return n;
}

// text from `start` on, at most maxChars long: an ellipsis first when something
// before start is left out, one last when the rest does not fit.
QString window(const QString &text, qsizetype start, int maxChars)
{
    start = std::clamp<qsizetype>(start, 0, text.size());
    if (start > 0 && start < text.size() && text.at(start).isLowSurrogate())
        --start;
    QString shown = start > 0 ? QString(ShortNameEllipsis) + text.mid(start) : text;
    if (shown.size() > maxChars)
        shown = shown.left(headLength(shown, maxChars - 1)) + ShortNameEllipsis;
    return shown;
}

} // namespace

SharedAffixes sharedAffixes(const QStringList &names)
{
    QStringList distinct = names;
    distinct.removeDuplicates();
    if (distinct.size() < 2)
        return {};
    qsizetype shortest = distinct.constFirst().size();
    for (const QString &name : std::as_const(distinct))
        shortest = std::min(shortest, name.size());
    const QString &first = distinct.constFirst();
    SharedAffixes affixes;
    // Each name keeps at least one character of its own.
    for (qsizetype k = commonPrefixLength(distinct); k > 0; --k) {
        if (k < shortest && isSeparator(first.at(k - 1))) {
            affixes.prefix = k;
            break;
        }
    }
    for (qsizetype k = commonSuffixLength(distinct); k > 0; --k) {
        if (affixes.prefix + k < shortest && isSeparator(first.at(first.size() - k))) {
            affixes.suffix = k;
            break;
        }
    }
    return affixes;
}

QString elideMiddle(const QString &text, int maxChars)
{
    if (text.size() <= maxChars)
        return text;
    const qsizetype keep = std::max(0, maxChars - 1);
    return text.left(headLength(text, (keep + 1) / 2)) + ShortNameEllipsis
        + text.right(tailLength(text, keep / 2));
}

QStringList distinctShortNames(const QStringList &names, int maxChars)
{
    maxChars = std::max(maxChars, MinShortNameChars);
    const SharedAffixes affixes = sharedAffixes(names);
    QStringList own;
    QStringList shown;
    own.reserve(names.size());
    shown.reserve(names.size());
    for (const QString &name : names) {
        own.append(name.mid(affixes.prefix, name.size() - affixes.prefix - affixes.suffix));
        shown.append(elideMiddle(own.constLast(), maxChars));
    }

    // Names cut alike differ somewhere in what the cut left out: each such group shows
    // its names from just before where they start to differ. A group's common prefix
    // grows with every round (names still alike agree on what they showed too), so
    // rounds end; the bound only guards against two groups trading texts.
    const auto collisions = [&] {
        QHash<QString, QList<qsizetype>> byText;
        for (qsizetype i = 0; i < shown.size(); ++i)
            byText[shown.at(i)].append(i);
        QList<QList<qsizetype>> groups;
        for (const QList<qsizetype> &group : std::as_const(byText)) {
            QSet<QString> distinct;
            for (qsizetype i : group)
                distinct.insert(own.at(i));
            if (distinct.size() > 1)
                groups.append(group);
        }
        return groups;
    };
    for (int round = 0; round < 16; ++round) {
        const QList<QList<qsizetype>> groups = collisions();
        if (groups.isEmpty())
            return shown;
        for (const QList<qsizetype> &group : groups) {
            QStringList members;
            for (qsizetype i : group)
                members.append(own.at(i));
            const qsizetype differ = commonPrefixLength(members);
            const qsizetype context = std::min<qsizetype>(differ, (maxChars - 2) / 3);
            for (qsizetype i : group)
                shown[i] = window(own.at(i), differ - context, maxChars);
        }
    }
    // Still alike (not met in practice): number the later ones of each group, with a
    // number no other name shows.
    QSet<QString> used(shown.cbegin(), shown.cend());
    for (const auto allGroups = collisions(); const QList<qsizetype> &group : allGroups) {
        QHash<QString, QString> byOwn; // the first of each distinct name keeps its text
        for (qsizetype i : group) {
            if (const auto it = byOwn.constFind(own.at(i)); it != byOwn.cend()) {
                shown[i] = *it;
                continue;
            }
            if (!byOwn.isEmpty()) {
                QString text;
                for (int n = 2; text.isEmpty() || used.contains(text); ++n) {
                    const QString number = u"#%1 "_s.arg(n);
                    text = number + elideMiddle(own.at(i), int(maxChars - number.size()));
                }
                used.insert(text);
                shown[i] = text;
            }
            byOwn.insert(own.at(i), shown.at(i));
        }
    }
    return shown;
}

} // namespace Headroom
