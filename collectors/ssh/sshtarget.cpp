// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "sshtarget.h"

#include <QUrl>

namespace Headroom {

using namespace Qt::StringLiterals;

bool isSshUrl(const QString &value)
{
    return value.startsWith("ssh://"_L1, Qt::CaseInsensitive);
}

QString SshTarget::url() const
{
    QString text = u"ssh://"_s;
    if (!user.isEmpty())
        text += user + u'@';
    text += host.contains(u':') ? u'[' + host + u']' : host;
    if (port != 0)
        text += u':' + QString::number(port);
    return text;
}

std::optional<SshTarget> parseSshTarget(const QString &value, QString *error)
{
    const auto fail = [&](const QString &reason) -> std::optional<SshTarget> {
        if (error)
            *error = u"\"host\": "_s + reason;
        return std::nullopt;
    };
    const QUrl url(value, QUrl::StrictMode);
    // Only the scheme and host part are echoed: the value may hold a password.
    const QString shown
        = url.isValid() ? url.toString(QUrl::RemovePassword) : u"the ssh:// value"_s;
    if (!url.isValid() || url.scheme().compare("ssh"_L1, Qt::CaseInsensitive) != 0)
        return fail(u"%1 is not an ssh://[user@]server[:port] URL"_s.arg(shown));
    if (!url.password().isEmpty())
        return fail(u"%1: ssh:// URLs take no password; Headroom signs in with ssh-agent "
                    "or a key file (~/.ssh/id_*, or IdentityFile in ~/.ssh/config)"_s.arg(shown));
    if (url.host().isEmpty())
        return fail(u"%1 names no server"_s.arg(shown));
    if (!url.path().isEmpty() && url.path() != "/"_L1)
        return fail(
            u"%1: a path has no meaning here (the collector reads /proc and /sys)"_s.arg(shown));
    if (url.hasQuery() || url.hasFragment())
        return fail(u"%1: no query or fragment is understood"_s.arg(shown));
    SshTarget target;
    target.user = url.userName();
    target.host = url.host();
    target.port = std::max(url.port(), 0);
    return target;
}

} // namespace Headroom
