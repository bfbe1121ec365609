// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "procstatparser.h"

#include "collector/procparseutil.h"

namespace Headroom {

using namespace Qt::StringLiterals;

using namespace ProcParse;

namespace {

// Kernels before 2.6.11 print fewer columns; user, nice, system and idle always exist.
constexpr int MinCpuFields = 4;

std::optional<CpuTimes> parseCpuTimes(const QList<QByteArrayView> &fields, int line,
                                      QStringList *problems)
{
    if (fields.size() < 1 + MinCpuFields) {
        addProblem(problems, line,
                   u"cpu line has %1 fields, expected at least %2"_s.arg(fields.size() - 1)
                       .arg(MinCpuFields));
        return std::nullopt;
    }
    quint64 values[8] = {};
    for (qsizetype i = 1; i < fields.size() && i <= 8; ++i) {
        const auto value = toU64(fields[i]);
        if (!value) {
            addProblem(problems, line, u"non-numeric cpu field %1"_s.arg(quoted(fields[i])));
            return std::nullopt;
        }
        values[i - 1] = *value;
    }
    return CpuTimes { values[0], values[1], values[2], values[3],
                      values[4], values[5], values[6], values[7] };
}

} // namespace

std::optional<ProcStat> parseProcStat(QByteArrayView content, QStringList *problems)
{
    ProcStat stat;
    bool haveAll = false;
    forEachLine(content, [&](int line, QByteArrayView text) {
        const auto fields = splitFields(text);
        if (fields.isEmpty())
            return;
        const QByteArrayView key = fields.front();
        if (key == "cpu") {
            if (const auto times = parseCpuTimes(fields, line, problems)) {
                stat.all = *times;
                haveAll = true;
            }
        } else if (key.startsWith("cpu") && toU64(key.sliced(3))) {
            if (const auto times = parseCpuTimes(fields, line, problems))
                stat.cpus.append({ QString::fromLatin1(key), *times });
        } else if (key == "procs_running") {
            const auto value = fields.size() == 2 ? toU64(fields[1]) : std::nullopt;
            if (value)
                stat.procsRunning = value;
            else
                addProblem(problems, line, u"malformed procs_running line"_s);
        }
        // intr, ctxt, btime, softirq...: not needed.
    });
    if (!haveAll) {
        if (problems)
            problems->append(u"no aggregate \"cpu\" line"_s);
        return std::nullopt;
    }
    return stat;
}

} // namespace Headroom
