// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The payload of the shardtable panel: the table's rows (shardquery.h).
#pragma once

#include "query/panels/panelpayloadfor.h"
#include "query/shards/shardload.h"

namespace Headroom {

template<> struct PanelPayloadFor<PanelType::ShardTable>
{
    using type = ShardTableData;
};

} // namespace Headroom
