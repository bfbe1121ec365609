// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// libFuzzer target: the SSH transport's answer parser (remotereadbatch.h) must survive
// anything a server sends, and account for every path it was asked for exactly once:
// each file read or in error, each directory listed or in error, each count and each
// filesystem's figures given or in error, nothing unasked.
// The input is the shell's output for one batch. Built with clang by tests/run-fuzz;
// tst_fuzzreplay_remoteread runs it over the seed corpus in every ctest run.
#include "remotereadbatch.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace Qt::StringLiterals;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace Headroom;
    const QByteArray output(reinterpret_cast<const char *>(data), qsizetype(size));
    // The seeds (corpus/remoteread) are this machine's answers to remoteReadScript()
    // for this batch and boundary, whole and cut short, and one the fuzzer found.
    static const RemoteReadBatch batch { { u"/proc/loadavg"_s, u"/proc/net/snmp"_s,
                                           u"/sys/class/net/lo/type"_s, u"/proc/missing"_s },
                                         { u"/sys/class/net"_s, u"/sys/missing"_s },
                                         { u"/proc/1/fd"_s },
                                         { u"/"_s } };
    const RemoteReadReply reply = parseRemoteReadOutput(
        batch, output, QByteArrayLiteral("0123456789abcdef0123456789abcdef"));
    for (const QString &path : batch.files) {
        if (reply.files.contents.contains(path) == reply.files.errors.contains(path))
            std::abort();
        if (reply.files.errors.contains(path) && reply.files.errors.value(path).isEmpty())
            std::abort();
    }
    if (reply.files.contents.size() + reply.files.errors.size() != batch.files.size()
        || reply.directories.size() != batch.directories.size())
        std::abort();
    // Each counted directory and each filesystem: a figure or a reason, not both.
    if (reply.files.entryCounts.size() + reply.files.entryCountErrors.size()
            != batch.entryCounts.size()
        || reply.files.filesystems.size() + reply.files.filesystemErrors.size()
            != batch.filesystems.size())
        std::abort();
    for (const QString &path : batch.entryCounts)
        if (reply.files.entryCounts.value(path, 0) < 0
            || reply.files.entryCountErrors.value(path, u"x"_s).isEmpty())
            std::abort();
    for (const QString &path : batch.directories) {
        const auto listing = reply.directories.constFind(path);
        if (listing == reply.directories.cend()
            || (listing->error.isEmpty() == false && !listing->entries.isEmpty()))
            std::abort();
    }
    return 0;
}
