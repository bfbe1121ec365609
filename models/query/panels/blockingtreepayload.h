// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The payload of the blockingtree panel: who blocks whom (blockingtreequery.h).
#pragma once

#include "query/locks/blockingtreedata.h"
#include "query/panels/panelpayloadfor.h"

namespace Headroom {

template<> struct PanelPayloadFor<PanelType::BlockingTree>
{
    using type = BlockingTreeData;
};

} // namespace Headroom
