// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/dashboardsecrets.h"

#include "core/conninfo.h"

#include <QJsonArray>
#include <QUrl>

namespace Headroom::DashboardSecrets {

using namespace Qt::StringLiterals;

QString passwordReason()
{
    return u"passwords are not stored in dashboard files; use libpq's .pgpass, "
           "a service file or the environment"_s;
}

bool isPasswordKey(const QString &key)
{
    return key.compare(u"password", Qt::CaseInsensitive) == 0;
}

namespace {

// A libpq connection string (the postgres plugin's option, and the host plugin's
// naming the server a database dashboard's host runs): keyword/value pairs or a URI.
bool isConninfoKey(const QString &key)
{
    return key.compare(u"conninfo", Qt::CaseInsensitive) == 0
        || key.compare(u"postgresServer", Qt::CaseInsensitive) == 0;
}

// "ssh://ops:secret@db1" -> "ssh://ops@db1": a URL typed with a password (a host
// variable, a source's URL) is written without it. Other strings stay as they are.
QString stringWithoutPassword(const QString &text)
{
    if (!text.contains(u"://"))
        return text;
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.password().isEmpty())
        return text;
    return url.toString(QUrl::RemovePassword);
}

QJsonValue valueWithoutPasswords(const QJsonValue &value)
{
    if (value.isString())
        return stringWithoutPassword(value.toString());
    if (value.isObject())
        return withoutPasswords(value.toObject());
    if (value.isArray()) {
        QJsonArray out;
        const QJsonArray in = value.toArray();
        for (const auto &item : in)
            out.append(valueWithoutPasswords(item));
        return out;
    }
    return value;
}

} // namespace

QJsonObject withoutPasswords(const QJsonObject &object)
{
    QJsonObject out;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (isPasswordKey(it.key()))
            continue;
        // "host=db password=secret" is no URL: the conninfo reading finds its password.
        if (isConninfoKey(it.key()) && it.value().isString())
            out.insert(it.key(), conninfoWithoutPassword(it.value().toString()));
        else
            out.insert(it.key(), valueWithoutPasswords(it.value()));
    }
    return out;
}

void collectConninfoVariables(const QJsonValue &value, bool inConninfo, QSet<QString> *names)
{
    if (value.isString() && inConninfo) {
        const QString text = value.toString();
        // Same reading of ${name} as substituteVariables: up to the next '}'.
        for (qsizetype start = text.indexOf(u"${"); start >= 0;
             start = text.indexOf(u"${", start + 2)) {
            const qsizetype end = text.indexOf(u'}', start + 2);
            if (end < 0)
                break;
            names->insert(text.mid(start + 2, end - start - 2));
        }
    } else if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it)
            collectConninfoVariables(it.value(), inConninfo || isConninfoKey(it.key()), names);
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (const auto &item : array)
            collectConninfoVariables(item, inConninfo, names);
    }
}

QString variableValueWithoutPassword(const QString &value, bool conninfo)
{
    return conninfo ? conninfoWithoutPassword(stringWithoutPassword(value))
                    : stringWithoutPassword(value);
}

} // namespace Headroom::DashboardSecrets
