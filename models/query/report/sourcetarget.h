// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What a source watched, as the incident report shows it: its config with variables
// substituted, reduced to what names the target and stripped of every secret. A report
// is attached to tickets and mailed around; a password in it would be a leak.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace Headroom {

// True for option names that hold a secret (password, passwd, secret, token, apikey,
// credential, authorization, in any case and as part of a longer name: "sslPassword",
// "bearerToken").
bool isSecretOptionName(const QString &name);

// A string value without its secrets: a libpq conninfo without its password pairs and
// the password of its URI form (conninfo.h), a URL without the password of its user
// info ("https://user:pw@host" → "https://user@host").
QString withoutSecrets(const QString &value);

// "key=value" per option, in key order: secret options left out, strings through
// withoutSecrets(), numbers and booleans as written, arrays and objects as a count
// ("queries: 3 items") since they hold SQL and lists, not the target.
QStringList sourceTargetLines(const QJsonObject &config);

} // namespace Headroom
