// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/import/importmap.h"

#include "core/jsonreader.h"

#include <QFile>

using namespace Qt::StringLiterals;

namespace Headroom::Import {

namespace {

constexpr qsizetype MaxMapBytes = 4 << 20;

// $1 ... $9 replaced by the match's groups; "$$" is a dollar.
QString substitute(const QString &text, const QRegularExpressionMatch &match)
{
    if (!text.contains(u'$'))
        return text;
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == u'$' && i + 1 < text.size()) {
            const QChar n = text.at(i + 1);
            if (n == u'$') {
                out += u'$';
                ++i;
                continue;
            }
            if (n >= u'1' && n <= u'9') {
                out += match.captured(n.unicode() - u'0');
                ++i;
                continue;
            }
        }
        out += c;
    }
    return out;
}

bool readRule(JsonReader &r, const QJsonValue &value, const QString &path, ColumnRule *rule)
{
    QJsonObject object;
    if (!r.elementObject(value, path, &object)
        || !r.checkKnownKeys(object, path,
                             { u"match"_s, u"metric"_s, u"labels"_s, u"unit"_s, u"kind"_s }))
        return false;
    QString pattern;
    if (!r.readNonEmptyString(object, u"match"_s, path, &pattern, MaxMapPatternLength))
        return false;
    rule->match = QRegularExpression(pattern);
    if (!rule->match.isValid())
        return r.fail(JsonReader::joinPath(path, u"match"_s),
                      u"not a regular expression: "_s + rule->match.errorString());
    if (!r.readString(object, u"metric"_s, path, false, &rule->metric, 1024)
        || !r.readString(object, u"unit"_s, path, false, &rule->unit, 64))
        return false;
    QString kind;
    if (!r.readString(object, u"kind"_s, path, false, &kind, 64))
        return false;
    if (!kind.isEmpty()) {
        bool ok = false;
        const UseKind parsed = useKindFromName(kind, &ok);
        if (!ok)
            return r.fail(JsonReader::joinPath(path, u"kind"_s),
                          u"must be one of utilization, saturation, errors, latency, "
                          "throughput, info, got \"%1\""_s.arg(kind));
        rule->kind = parsed;
    }
    QJsonObject labels;
    if (object.contains(u"labels"_s) && !r.readObject(object, u"labels"_s, path, &labels))
        return false;
    const QString labelsPath = JsonReader::joinPath(path, u"labels"_s);
    if (!r.checkCount(labels.size(), 64, labelsPath, u"labels"_s))
        return false;
    for (auto it = labels.begin(); it != labels.end(); ++it) {
        QString text;
        if (!r.checkLabelName(it.key(), JsonReader::joinPath(labelsPath, it.key()))
            || !r.readString(labels, it.key(), labelsPath, true, &text, 1024))
            return false;
        rule->labels.append({ it.key(), text });
    }
    return true;
}

} // namespace

std::optional<ImportMap> parseImportMap(const QByteArray &json, QString *error)
{
    JsonReader r(4096);
    const auto root = r.parseObject(json);
    ImportMap map;
    QJsonArray columns;
    if (!root || !r.checkKnownKeys(*root, {}, { u"time"_s, u"columns"_s })
        || !r.readString(*root, u"time"_s, {}, false, &map.timeColumn, 1024)
        || !r.readArray(*root, u"columns"_s, {}, false, &columns)
        || !r.checkCount(columns.size(), MaxMapRules, u"columns"_s, u"rules"_s)) {
        *error = r.error().toString();
        return std::nullopt;
    }
    for (qsizetype i = 0; i < columns.size(); ++i) {
        ColumnRule rule;
        if (!readRule(r, columns.at(i), JsonReader::indexPath(u"columns"_s, i), &rule)) {
            *error = r.error().toString();
            return std::nullopt;
        }
        map.columns.append(rule);
    }
    return map;
}

std::optional<ImportMap> loadImportMap(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = path + u": cannot read: "_s + file.errorString();
        return std::nullopt;
    }
    const QByteArray json = file.read(MaxMapBytes + 1);
    if (json.size() > MaxMapBytes) {
        *error = path + u": larger than %1 bytes"_s.arg(MaxMapBytes);
        return std::nullopt;
    }
    auto map = parseImportMap(json, error);
    if (!map)
        *error = path + u": "_s + *error;
    return map;
}

std::optional<MappedColumn> mapColumn(const ImportMap &map, const QString &header)
{
    for (const ColumnRule &rule : map.columns) {
        const QRegularExpressionMatch match = rule.match.match(header);
        if (!match.hasMatch())
            continue;
        MappedColumn out;
        out.metric = rule.metric.isEmpty() ? header : substitute(rule.metric, match);
        for (const auto &[name, value] : rule.labels)
            out.labels.insert(name, substitute(value, match));
        out.unit = rule.unit;
        out.kind = rule.kind;
        return out;
    }
    return std::nullopt;
}

} // namespace Headroom::Import
