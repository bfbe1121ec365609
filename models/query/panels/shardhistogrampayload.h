// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The payload of the shardhistogram panel: the load histogram (shardquery.h).
#pragma once

#include "query/panels/panelpayloadfor.h"
#include "query/shards/shardload.h"

namespace Headroom {

template<> struct PanelPayloadFor<PanelType::ShardHistogram>
{
    using type = ShardLoadHistogram;
};

} // namespace Headroom
