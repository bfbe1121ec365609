// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What `headroom --help` prints and the manual page (headroom.1, made at build time by
// headroom-manpage): one text, grouped by what the reader wants to do (watch, open a
// recording, export, serve metrics, a fleet), each task with an example, then the exit
// status. The options themselves, with their descriptions, are those the parser knows
// (commandline.cpp); an option no task names yet is listed under "Other options", so a
// new one is never missing from either.
#pragma once

#include <QCommandLineOption>
#include <QList>

namespace Headroom {

// The --help text for these options (hidden ones left out).
QString commandLineHelp(const QList<QCommandLineOption> &options);

// The same as a manual page in roff (man(7)), for the given version.
QString commandLineManPage(const QList<QCommandLineOption> &options, const QString &version);

} // namespace Headroom
