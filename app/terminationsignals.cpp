// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "terminationsignals.h"

#include <QSocketNotifier>
#include <cerrno>
#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

namespace Headroom {

namespace {
// One instance per process (the headless report); the handler can only reach globals.
int g_signalFds[2] = { -1, -1 };
volatile std::sig_atomic_t g_signalsCaught = 0;
struct sigaction g_previousInt {}, g_previousTerm {};

extern "C" void onTerminationSignal(int signalNumber)
{
    const bool again = g_signalsCaught != 0;
    g_signalsCaught = 1;
    if (again) {
        // Asked twice: stop now, the way the user expects of a second Ctrl-C.
        ::signal(signalNumber, SIG_DFL);
        ::raise(signalNumber);
        return;
    }
    const int savedErrno = errno;
    const unsigned char byte = static_cast<unsigned char>(signalNumber);
    [[maybe_unused]] const ssize_t written = ::write(g_signalFds[0], &byte, 1);
    errno = savedErrno;
}
} // namespace

TerminationSignals::TerminationSignals(QObject *parent)
    : QObject(parent)
{
    Q_ASSERT(g_signalFds[0] < 0);
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_signalFds) != 0) {
        g_signalFds[0] = g_signalFds[1] = -1;
        return; // the default dispositions stay: the process dies as before
    }
    m_notifier = new QSocketNotifier(g_signalFds[1], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &TerminationSignals::readSignal);

    struct sigaction action {};
    action.sa_handler = onTerminationSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &action, &g_previousInt);
    ::sigaction(SIGTERM, &action, &g_previousTerm);
}

TerminationSignals::~TerminationSignals()
{
    if (g_signalFds[0] < 0)
        return;
    ::sigaction(SIGINT, &g_previousInt, nullptr);
    ::sigaction(SIGTERM, &g_previousTerm, nullptr);
    delete m_notifier;
    ::close(g_signalFds[0]);
    ::close(g_signalFds[1]);
    g_signalFds[0] = g_signalFds[1] = -1;
}

bool TerminationSignals::takeByte()
{
    unsigned char byte = 0;
    if (g_signalFds[1] < 0 || ::recv(g_signalFds[1], &byte, 1, MSG_DONTWAIT) != 1)
        return false;
    if (m_caught == 0)
        m_caught = byte;
    return true;
}

int TerminationSignals::caught()
{
    if (m_caught == 0)
        takeByte();
    return m_caught;
}

void TerminationSignals::readSignal()
{
    if (takeByte())
        Q_EMIT received(m_caught);
}

} // namespace Headroom
