// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The payload of the table panel: an instant query's rows (promqltable.h).
#pragma once

#include "query/panels/panelpayloadfor.h"
#include "query/promql/promqltabledata.h"

namespace Headroom {

template<> struct PanelPayloadFor<PanelType::Table>
{
    using type = PromqlTableData;
};

} // namespace Headroom
