// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/report/sourcetarget.h"

#include "core/conninfo.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QUrl>

namespace Headroom {

using namespace Qt::StringLiterals;

bool isSecretOptionName(const QString &name)
{
    static const QRegularExpression secret(
        u"pass(word|wd)?|secret|token|api_?key|credential|authori[sz]ation|private_?key"_s,
        QRegularExpression::CaseInsensitiveOption);
    return secret.match(name).hasMatch();
}

QString withoutSecrets(const QString &value)
{
    QString text = conninfoWithoutPassword(value);
    // Any other URL with user info: drop its password, keep the user (it says who). Up
    // to the last '@' before the next space: an unencoded '/' or '@' in a password must
    // not leak any of it (a host name never holds an '@').
    static const QRegularExpression userInfo(u"([a-zA-Z][a-zA-Z0-9+.-]*://[^/:@\\s]*):\\S*@"_s);
    text.replace(userInfo, u"\\1@"_s);
    // A query parameter named like a secret ("?token=...&x=1").
    static const QRegularExpression secretParameter(
        u"([?&;](?:[a-zA-Z_]*(?:pass(?:word|wd)?|secret|token|api_?key)[a-zA-Z_]*))=[^&;#\\s]*"_s,
        QRegularExpression::CaseInsensitiveOption);
    text.replace(secretParameter, u"\\1=***"_s);
    return text;
}

QStringList sourceTargetLines(const QJsonObject &config)
{
    QStringList lines;
    for (auto it = config.constBegin(); it != config.constEnd(); ++it) {
        if (isSecretOptionName(it.key()))
            continue;
        const QJsonValue &value = it.value();
        QString shown;
        switch (value.type()) {
        case QJsonValue::String:
            shown = withoutSecrets(value.toString());
            break;
        case QJsonValue::Double:
            shown = QString::number(value.toDouble());
            break;
        case QJsonValue::Bool:
            shown = value.toBool() ? u"true"_s : u"false"_s;
            break;
        case QJsonValue::Array:
            shown = u"%1 items"_s.arg(value.toArray().size());
            break;
        case QJsonValue::Object:
            shown = u"%1 options"_s.arg(value.toObject().size());
            break;
        case QJsonValue::Null:
        case QJsonValue::Undefined:
            continue;
        }
        lines.append(it.key() + u'=' + shown);
    }
    return lines;
}

} // namespace Headroom
