// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Writes one raw RTM_GETQDISC dump of this network namespace, as the kernel sent it, to
// FILE: what tests/fixtures/qdisc/capture.sh records next to `tc -s -j qdisc show`.
#include "qdiscstats.h"

#include <QCoreApplication>
#include <QFile>
#include <QTextStream>

using namespace Headroom;
using namespace Qt::StringLiterals;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTextStream err(stderr);
    if (app.arguments().size() != 2) {
        err << "usage: qdisc_capture FILE\n";
        return 2;
    }
    const QdiscDumpReading reading = readQdiscDump(QDeadlineTimer(QdiscMaxWaitMs));
    if (!reading.error.isEmpty() || !reading.dump.complete) {
        err << "qdisc_capture: " << (reading.error.isEmpty() ? u"incomplete"_s : reading.error)
            << '\n';
        return 1;
    }
    QFile file(app.arguments().at(1));
    if (!file.open(QIODevice::WriteOnly) || file.write(reading.raw) != reading.raw.size()) {
        err << "qdisc_capture: " << file.fileName() << ": " << file.errorString() << '\n';
        return 1;
    }
    err << reading.raw.size() << " bytes, " << reading.dump.qdiscs.size() << " qdiscs\n";
    return 0;
}
