// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The panel types, one registration line each: X(Enumerator, name), where name is how a
// dashboard file spells the type's "type". The order is the enum's, the panel editor's
// and the file reader's list; the first is what a new panel is. Everything that
// dispatches on a type is generated from this list (docs/ARCHITECTURE.md, "Adding a panel
// type"): the enum and the names (document/paneltype.*), the options check
// (document/panels/paneltyperules.*), the payload, query and CSV rows
// (query/panels/paneldescriptor.*) and the view (widgets/panels/panelfactory.*). Each
// layer's dispatch (visitPanelType) calls a function declared for every listed type and defined by
// that type's own file in the layer's panels/ folder, so a type listed but not written fails to
// link (or, for its payload, to compile), and no other file names the type.
#pragma once

// clang-format off
#define HEADROOM_PANEL_TYPES(X) \
    X(TimeSeries, timeseries) \
    X(Heatmap, heatmap) \
    X(UseMatrix, usematrix) \
    X(ShardHistogram, shardhistogram) \
    X(ShardTable, shardtable) \
    X(Alerts, alerts) \
    X(BlockingTree, blockingtree) \
    X(Table, table) \
    X(Stat, stat)
// clang-format on
