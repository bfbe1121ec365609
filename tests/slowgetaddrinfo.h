// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A name server that does not answer in time, for tests of deadline-bounded lookups:
// this getaddrinfo, defined in the test executable, wins over libc's for every caller
// (resolveHost, libpq, libssh). Names under .slow.test take slowLookupMs and fail with
// EAI_AGAIN, as a dead DNS server would after 5 s and more; other names go to libc.
// Include it in one source file of a test executable only.
#pragma once

#include <QByteArrayView>
#include <QThread>
#include <atomic>
#include <dlfcn.h>
#include <netdb.h>

namespace Headroom::Test {
inline std::atomic<int> slowLookups = 0;
inline std::atomic<int> slowLookupMs = 1500;
} // namespace Headroom::Test

extern "C" int getaddrinfo(const char *node, const char *service, const addrinfo *hints,
                           addrinfo **res)
{
    using Real = int (*)(const char *, const char *, const addrinfo *, addrinfo **);
    static const auto real = reinterpret_cast<Real>(dlsym(RTLD_NEXT, "getaddrinfo"));
    if (node && QByteArrayView(node).endsWith(".slow.test")) {
        ++Headroom::Test::slowLookups;
        QThread::msleep(Headroom::Test::slowLookupMs);
        return EAI_AGAIN;
    }
    return real(node, service, hints, res);
}
