// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/environmentsecrets.h"

#include <QtGlobal>
#include <mutex>

namespace Headroom {

namespace {
QByteArray &pgPassword()
{
    static QByteArray value;
    return value;
}
std::once_flag taken;
} // namespace

void takeEnvironmentSecrets()
{
    std::call_once(taken, [] {
        pgPassword() = qgetenv("PGPASSWORD");
        qunsetenv("PGPASSWORD");
    });
}

QByteArray environmentPgPassword()
{
    takeEnvironmentSecrets();
    return pgPassword();
}

} // namespace Headroom
