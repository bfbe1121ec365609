// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// One poll's files and directory listings as one script for a shell on the server,
// and its output back into contents, listings and errors. The scripts go, one after
// the other, to one long-running `/bin/sh -s` per host (RemoteReadShell) on its
// standard input: no process is started per poll but the readers themselves, the
// user's login shell (fish, tcsh) never parses them, their length has no argument
// limit, and they do not show in the server's process list.
//
// The script is plain POSIX sh: the processes' stat files (/proc/PID/stat, one line
// starting with the pid; hundreds a poll on a busy host) by one `cat` as one item whose
// lines are told apart by their pid, files under /sys and /proc/PID/statm (one-line
// files) with the shell's own `read`, the other files of
// /proc/PID (io, status, cgroup: a few lines each, thousands of them on a busy server)
// line by line with `read` too, so reading a process costs no process on the server;
// others with `cat`, directories with `ls`. The entries of a directory to count (open
// files: /proc/PID/fd) are counted by the shell's globbing, and a filesystem's figures
// (statvfs, which no file holds) come from `stat -f` (GNU coreutils or BusyBox), so
// nothing has to be installed on the server. Each item's output follows a header line
// that starts with a random boundary chosen per batch; the batch ends with an END line
// (endMarker()). Errors are in band (2>&1): an item that failed is followed by an E
// line, and its text holds the tool's message ("cat: /x: No such file or directory").
// Files from /proc and /sys cannot guess the boundary; a server that sends garbage only
// spoils its own figures: what does not parse is an error of the paths concerned.
#pragma once

#include "collector/filesource.h"

#include <QByteArray>
#include <QHash>
#include <QStringList>

namespace Headroom {

struct RemoteReadBatch
{
    QStringList files;
    QStringList directories;
    QStringList entryCounts; // directories whose entries are counted
    QStringList filesystems; // mount points whose figures are wanted
};

struct RemoteReadReply
{
    FileReadResult files; // with the entry counts and filesystem figures
    QHash<QString, DirectoryListing> directories;
    // False when the output stopped before the end marker (connection lost, cap hit):
    // the items that had not arrived carry an error.
    bool complete = false;
};

inline constexpr char RemoteReadShell[] = "/bin/sh -s";

// A fresh random boundary for one batch (hex, 32 characters).
QByteArray newBatchBoundary();

QByteArray remoteReadScript(const RemoteReadBatch &batch, const QByteArray &boundary);
// The last bytes of a batch's output: the reader waits for them.
QByteArray endMarker(const QByteArray &boundary);

RemoteReadReply parseRemoteReadOutput(const RemoteReadBatch &batch, const QByteArray &output,
                                      const QByteArray &boundary);

} // namespace Headroom
