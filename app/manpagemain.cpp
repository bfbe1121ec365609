// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// headroom-manpage OUT: writes headroom.1 at build time from the text of --help
// (commandlinehelp.h), through the same parser as `headroom --man-page`, without a
// display or the widgets.
#include "commandline.h"

#include <QCoreApplication>
#include <QSaveFile>
#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("headroom"));
    QCoreApplication::setApplicationVersion(QStringLiteral(HEADROOM_VERSION));
    if (argc != 2) {
        std::fputs("usage: headroom-manpage OUT.1\n", stderr);
        return 2;
    }
    Headroom::CommandLine options;
    QString error;
    if (!Headroom::parseCommandLine({ QStringLiteral("headroom"), QStringLiteral("--man-page") },
                                    &options, &error)
        || options.printAndExit.isEmpty()) {
        std::fprintf(stderr, "headroom-manpage: %s\n", qUtf8Printable(error));
        return 1;
    }
    QSaveFile file(QString::fromLocal8Bit(argv[1]));
    if (!file.open(QIODevice::WriteOnly) || file.write(options.printAndExit.toUtf8()) < 0
        || !file.commit()) {
        std::fprintf(stderr, "headroom-manpage: %s: %s\n", argv[1],
                     qUtf8Printable(file.errorString()));
        return 1;
    }
    return 0;
}
