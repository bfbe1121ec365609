// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/dashboard.h"

#include "documentlogging.h"

#include <QJsonArray>
#include <QJsonValue>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// Glob match where '*' matches any run of characters (dots included) and every
// other character matches itself. Iterative, with one backtracking point.
bool globMatches(QStringView pattern, QStringView text)
{
    qsizetype p = 0, t = 0;
    qsizetype starP = -1, starT = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == u'*') {
            starP = p++;
            starT = t;
        } else if (p < pattern.size() && pattern[p] == text[t]) {
            ++p;
            ++t;
        } else if (starP >= 0) {
            p = starP + 1;
            t = ++starT;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == u'*')
        ++p;
    return p == pattern.size();
}

QString substituteString(const QString &text, const QMap<QString, QString> &values, QString *error)
{
    if (!text.contains(u"${"))
        return text;
    QString out;
    out.reserve(text.size());
    qsizetype pos = 0;
    while (pos < text.size()) {
        const qsizetype start = text.indexOf(u"${", pos);
        if (start < 0)
            break;
        const qsizetype end = text.indexOf(u'}', start + 2);
        if (end < 0)
            break; // an unterminated "${" is kept as it is
        out += QStringView(text).mid(pos, start - pos);
        const QString name = text.mid(start + 2, end - start - 2);
        const auto it = values.constFind(name);
        if (it != values.constEnd()) {
            out += *it;
        } else {
            if (error->isEmpty())
                *error = u"unknown variable ${%1}"_s.arg(name);
            out += QStringView(text).mid(start, end - start + 1);
        }
        pos = end + 1;
    }
    out += QStringView(text).mid(pos);
    return out;
}

QJsonValue substituteValue(const QJsonValue &value, const QMap<QString, QString> &values,
                           QString *error);

// Keeps the first error in *error (never null here).
QJsonObject substituteObject(const QJsonObject &object, const QMap<QString, QString> &values,
                             QString *error)
{
    QJsonObject out;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it)
        out.insert(it.key(), substituteValue(it.value(), values, error));
    return out;
}

QJsonValue substituteValue(const QJsonValue &value, const QMap<QString, QString> &values,
                           QString *error)
{
    switch (value.type()) {
    case QJsonValue::String:
        return substituteString(value.toString(), values, error);
    case QJsonValue::Object:
        return substituteObject(value.toObject(), values, error);
    case QJsonValue::Array: {
        QJsonArray out;
        const QJsonArray in = value.toArray();
        for (const auto &item : in)
            out.append(substituteValue(item, values, error));
        return out;
    }
    default:
        return value;
    }
}

} // namespace

bool SeriesSelector::matches(const SeriesKey &key) const
{
    if (!globMatches(source, key.source))
        return false;
    if (!globMatches(metric, key.metric))
        return false;
    for (auto it = labels.cbegin(); it != labels.cend(); ++it) {
        const auto found = key.labels.constFind(it.key());
        if (found == key.labels.cend() || !globMatches(it.value(), *found))
            return false;
    }
    return true;
}

const DashboardPanel *Dashboard::panel(const QString &id) const
{
    for (const DashboardPanel &p : panels) {
        if (p.id == id)
            return &p;
    }
    return nullptr;
}

int Dashboard::sectionOfRow(int y) const
{
    int index = -1;
    for (int i = 0; i < sections.size(); ++i) {
        if (sections.at(i).y <= y)
            index = i;
    }
    return index;
}

QMap<QString, QString> Dashboard::resolveVariables(const QMap<QString, QString> &values) const
{
    QMap<QString, QString> out;
    for (const DashboardVariable &variable : variables)
        out.insert(variable.name, variable.defaultValue);
    for (auto it = values.cbegin(); it != values.cend(); ++it) {
        if (!out.contains(it.key())) {
            qCWarning(lcDashboard) << "ignoring value for undeclared variable" << it.key();
            continue;
        }
        out.insert(it.key(), it.value());
    }
    return out;
}

QStringList variableValues(const QString &value)
{
    QStringList values;
    for (const auto parts = value.split(u','); const QString &part : parts) {
        const QString trimmed = part.trimmed();
        if (!trimmed.isEmpty())
            values.append(trimmed);
    }
    return values;
}

int PanelThresholds::level(double value) const
{
    if (qIsNaN(value))
        return 0;
    const auto beyond = [&](double bound) {
        return !qIsNaN(bound) && (higherIsWorse ? value >= bound : value <= bound);
    };
    return beyond(critical) ? 2 : beyond(warning) ? 1 : 0;
}

QString yScaleName(YScale scale)
{
    return scale == YScale::Log ? u"log"_s : u"linear"_s;
}

std::optional<YScale> yScaleFromName(const QString &name)
{
    if (name == "linear"_L1)
        return YScale::Linear;
    if (name == "log"_L1)
        return YScale::Log;
    return std::nullopt;
}

std::optional<qint64> apdexTMs(const DashboardDerived &derived,
                               const QMap<QString, QString> &values, QString *error)
{
    QString unknown;
    const QString text = substituteString(derived.apdexT, values, &unknown).trimmed();
    const auto ms = unknown.isEmpty() ? parseDuration(text) : std::nullopt;
    if (!ms && error)
        *error = unknown.isEmpty()
            ? u"T \"%1\" of %2 is no duration like 50ms"_s.arg(text, derived.metric)
            : unknown;
    return ms;
}

QJsonObject substituteVariables(const QJsonObject &config, const QMap<QString, QString> &values,
                                QString *error)
{
    QString firstError;
    QJsonObject out = substituteObject(config, values, &firstError);
    if (error)
        *error = firstError;
    return out;
}

} // namespace Headroom
