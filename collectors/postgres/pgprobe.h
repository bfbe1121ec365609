// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The latency probe: runs a read-only query `count` times back to back each poll and
// records every round trip (client-side, so network and server queueing included) in
// the histogram series pg.latency.probe (ms). It runs after the other parts and only
// with the time left before the poll's deadline: it stops before a run that would not
// fit (twice the slowest run so far), and a run that still hits the deadline is
// recorded with the time it had, as a lower bound; either way a warning says so.
#pragma once

#include "pgpoll.h"
#include "postgresoptions.h"

namespace Headroom {

class PgProbePart : public PgPart
{
public:
    explicit PgProbePart(PgProbeOptions options);

    void collect(PgPoll &poll) override;
    void resetBaselines() override { }

    static inline const QString Metric = QStringLiteral("pg.latency.probe");

private:
    PgProbeOptions m_options;
    QByteArray m_sql;
};

} // namespace Headroom
