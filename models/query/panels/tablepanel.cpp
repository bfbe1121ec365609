// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The table panel ("type": "table"): an engine's instant query, one row per series
// (query/promql/promqltable.h, which also describes its CSV rows; options checked by
// document/panels/tableoptions.h).
#include "engine/seriesstore.h"
#include "query/panels/paneldescriptor.h"
#include "query/promql/promqltable.h"

#include <QDateTime>

namespace Headroom {

template<> const PanelDescriptor &panelDescriptorOf<PanelType::Table>()
{
    static constexpr PanelDescriptor descriptor {
        .type = PanelType::Table,
        .showsAlerts = false,
        .supportsCompare = false,
        .readsSeries = false, // it reads its query
        .query =
            [](const PanelQueryRequest &r) {
                return queryPromqlTable(r.panel, r.store.promqlEngines(), r.toMs,
                                        QDateTime::currentMSecsSinceEpoch());
            },
        .csvRows = promqlTableCsvRows,
    };
    return descriptor;
}

} // namespace Headroom
