// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What the query layer knows of a panel type, in one place per type
// (query/panels/<type>panel.cpp, beside its payload in <type>payload.h): its query, the
// CSV rows of its own view and what it can do. queryPanel(), csvRows(), the dashboard
// view and the panel editor ask the descriptor instead of comparing types.
#pragma once

#include "query/panelquery.h"

namespace Headroom {

// The inputs of one panel's query.
struct PanelQueryRequest
{
    const DashboardPanel &panel;
    const SeriesRegistry &registry;
    const SeriesStore &store;
    qint64 fromMs = 0;
    qint64 toMs = 0;
    int columns = 0; // the pixel width; <= 0: no reduction (CSV export)
    // The events queryPanel() read for a type that showsAlerts (empty for the others);
    // it puts them into PanelData::alerts after the query.
    const QList<AlertEvent> &alerts;
};

struct PanelDescriptor
{
    PanelType type;
    // PanelData::alerts is filled: the events from AlertLookbackMs before the range to
    // its end (timeseries, usematrix, alerts).
    bool showsAlerts = false;
    // Compare mode overlays its series over an earlier range (addComparison).
    bool supportsCompare = false;
    // It draws its selectors' series, so a panel without any shows nothing (false for the
    // alert list, which shows the dashboard's alert events).
    bool readsSeries = true;
    // The panel's data for the range: PanelData::payload holds this type's alternative.
    // panelId, the range and alerts are set by queryPanel() afterwards.
    PanelData (*query)(const PanelQueryRequest &request) = nullptr;
    // The CSV rows of its own view (csvexport.h), written after the series rows; nullptr
    // for types whose series are their whole view.
    QString (*csvRows)(const PanelData &data) = nullptr;
};

// Defined by each type's query/panels/<type>panel.cpp; a listed type without one fails
// to link.
template<PanelType Type> const PanelDescriptor &panelDescriptorOf();
#define HEADROOM_PANEL_DESCRIPTOR(Enumerator, name)                                                \
    template<> const PanelDescriptor &panelDescriptorOf<PanelType::Enumerator>();
HEADROOM_PANEL_TYPES(HEADROOM_PANEL_DESCRIPTOR)
#undef HEADROOM_PANEL_DESCRIPTOR

// The descriptor of the type.
const PanelDescriptor &panelDescriptor(PanelType type);

} // namespace Headroom
