// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Whether the user's ssh config may send a connection through a jump host (ProxyJump),
// in the file itself or in any file it includes. libssh 0.11 cannot be asked
// (ssh_options_get knows no SSH_OPTIONS_PROXYJUMP), and a socket Headroom connects
// itself would bypass the jump, so SshConnection then lets libssh connect by itself.
// Conservative: a ProxyJump under any Host or Match counts, and so do an Include
// nested too deep or a pattern in an Include's directory part, which are not followed.
#pragma once

#include <QString>

namespace Headroom {

bool sshConfigMayJump(const QString &configPath);

} // namespace Headroom
