// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Who may read the cache: its directory and files are private to the user.
//
// Samples carry host names, query texts and figures of production servers, so the
// cache is created like ~/.ssh: the directories Headroom creates 0700, the file 0600,
// whatever the umask. SQLite creates the -wal and -shm with the main file's mode, so a
// private main file keeps them private too. Existing files and directories keep their
// mode (a recording deliberately shared with a group stays shared); only -wal/-shm that
// are wider than their main file are narrowed to it, as SQLite would have made them.
#pragma once

#include <QString>

namespace Headroom::CacheFiles {

// Creates dir and its missing parents, each created one 0700. Existing ones are left
// as they are. false with *reason (without the path) on failure.
bool makePrivateDirectory(const QString &dir, QString *reason);

// Creates path empty with mode 0600 when it does not exist; an existing file is not
// touched (neither its content nor its mode). Narrows an existing path-wal/-shm to the
// main file's mode. false with *reason on failure.
bool createPrivateFile(const QString &path, QString *reason);

// A message naming the file it is about: "/path/to/file: reason".
QString withPath(const QString &path, const QString &reason);

} // namespace Headroom::CacheFiles
