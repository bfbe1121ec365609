// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What a dashboard file never holds: a password. The reader refuses a config key named
// "password" (passwordReason() says why); the writer drops such keys and removes the
// password of every URL and connection string it writes, and of the variables that feed
// a connection string.
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QSet>
#include <QString>

namespace Headroom::DashboardSecrets {

QString passwordReason();
bool isPasswordKey(const QString &key);

// The object with every "password" key dropped, at any depth, and passwords removed from
// URLs and conninfo strings.
QJsonObject withoutPasswords(const QJsonObject &object);
// The names of the variables that conninfo strings of the config refer to (${pg}): their
// values are connection strings too, and what the user typed in the toolbar becomes
// their default on Save.
void collectConninfoVariables(const QJsonValue &value, bool inConninfo, QSet<QString> *names);
// A variable's default or option as written: without a URL's password, and for a
// variable that feeds a conninfo without a keyword-style or URI password either.
QString variableValueWithoutPassword(const QString &value, bool conninfo);

} // namespace Headroom::DashboardSecrets
