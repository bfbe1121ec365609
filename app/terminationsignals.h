// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// SIGINT and SIGTERM as a Qt signal, for the headless report: a cron job's timeout or a
// Ctrl-C must still flush the cache and write the report of what was collected.
//
// The handler only write()s the signal number into a socketpair (async-signal-safe);
// a QSocketNotifier on the other end turns it into received() on the owning thread.
// A second signal while the first is being handled kills the process as usual.
#pragma once

#include <QObject>

class QSocketNotifier;

namespace Headroom {

class TerminationSignals : public QObject
{
    Q_OBJECT
public:
    explicit TerminationSignals(QObject *parent = nullptr);
    ~TerminationSignals() override; // restores the previous handlers

    // The first signal caught (SIGINT or SIGTERM), 0 while none was. Also sees one that
    // arrived after the event loop last ran.
    int caught();
    // 128 + the signal, the shell's convention: 130 for SIGINT, 143 for SIGTERM.
    int exitCode() { return 128 + caught(); }

Q_SIGNALS:
    void received(int signalNumber);

private:
    void readSignal();
    bool takeByte(); // false when nothing is waiting

    QSocketNotifier *m_notifier = nullptr;
    int m_caught = 0;
};

} // namespace Headroom
