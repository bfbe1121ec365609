// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The payload of the usematrix panel: one row per resource (usematrixquery.h).
#pragma once

#include "query/panels/panelpayloadfor.h"
#include "query/use/usematrix.h"

namespace Headroom {

template<> struct PanelPayloadFor<PanelType::UseMatrix>
{
    using type = UseMatrix;
};

} // namespace Headroom
