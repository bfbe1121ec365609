// One poll's files and directory listings as one script for the server's /bin/sh, and
// its output back into contents, listings and errors. The script is plain POSIX sh with
// cat and ls, so nothing has to be installed on the server. It goes to `/bin/sh -s` on
// standard input, not on the command line: so the user's login shell (fish, tcsh) does
// not have to parse it, its length has no argument limit (hosts with hundreds of
// interfaces), and it does not show in the server's process list. Each item's output follows a
// header line that starts with a random boundary chosen per batch; files from /proc and /sys hold
// text that cannot guess it, and a server that sends garbage only spoils its own figures: whatever
// does not parse is reported as an error of the paths concerned.
#pragma once

#include "filesource.h"

#include <QByteArray>
#include <QHash>
#include <QStringList>

namespace Headroom {

struct RemoteReadBatch
{
    QStringList files;
    QStringList directories;
};

struct RemoteReadReply
{
    FileReadResult files;
    QHash<QString, DirectoryListing> directories;
    // False when the output stopped before the end marker (connection lost, cap hit):
    // the items that had not arrived carry an error.
    bool complete = false;
};

// A fresh random boundary for one batch (hex, 32 characters).
QByteArray newBatchBoundary();

inline constexpr char RemoteReadShell[] = "/bin/sh -s";
QByteArray remoteReadScript(const RemoteReadBatch &batch, const QByteArray &boundary);

// stderrText is the script's standard error: cat's and ls's own messages
// ("cat: PATH: REASON") give each failed item its reason.
RemoteReadReply parseRemoteReadOutput(const RemoteReadBatch &batch, const QByteArray &output,
                                      const QByteArray &stderrText, const QByteArray &boundary);

} // namespace Headroom
