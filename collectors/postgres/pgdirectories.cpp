// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgdirectories.h"

#include "pgactivity.h"

namespace Headroom {

using namespace Qt::StringLiterals;

void PgDirectoriesPart::collect(PgPoll &poll)
{
    if (!m_asked) {
        m_asked = true;
        m_dataDirectory.clear();
        const PgResult answer = poll.tryRun(
            "SELECT setting FROM pg_catalog.pg_settings WHERE name = 'data_directory'");
        if (answer.ok() && answer.rows() == 1 && !answer.isNull(0, 0))
            m_dataDirectory = answer.text(0, 0);
    }
    if (m_dataDirectory.isEmpty())
        return;
    poll.result.batch.add(
        { poll.source(), Metric, { { u"kind"_s, u"data"_s }, { u"path"_s, m_dataDirectory } } },
        QString(), PgActivitySampler::Resource, UseKind::Info, 1);
}

} // namespace Headroom
