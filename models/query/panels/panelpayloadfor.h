// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// PanelPayloadFor<Type>::type: what a panel type's query returns beyond series and
// alerts (PanelData::payload's alternative for the type). Each type's
// query/panels/<type>payload.h specialises it; the build gathers those headers into
// query/panels/panelpayloads.h (query/CMakeLists.txt), which query/panelquery.h reads to
// make PanelPayload, so a listed type without its payload header does not compile.
#pragma once

#include "document/paneltype.h"

namespace Headroom {

template<PanelType Type> struct PanelPayloadFor;

} // namespace Headroom
