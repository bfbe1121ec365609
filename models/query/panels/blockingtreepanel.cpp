// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The blocking tree panel ("type": "blockingtree"): who blocks whom at the newest poll
// of the range, each root blocker with the sessions waiting on it below it
// (query/locks/blockingtreequery.h, which also writes its CSV rows). No options.
#include "query/locks/blockingtreequery.h"
#include "query/panels/paneldescriptor.h"

namespace Headroom {

template<> const PanelDescriptor &panelDescriptorOf<PanelType::BlockingTree>()
{
    static constexpr PanelDescriptor descriptor {
        .type = PanelType::BlockingTree,
        .showsAlerts = false,
        .supportsCompare = false,
        .readsSeries = true,
        .query =
            [](const PanelQueryRequest &r) {
                return queryBlockingTreePanel(r.panel, r.registry, r.store, r.fromMs, r.toMs);
            },
        .csvRows = blockingTreeCsvRows,
    };
    return descriptor;
}

} // namespace Headroom
