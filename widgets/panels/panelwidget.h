// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The base of every panel type on the dashboard grid: holds the panel's config and
// its latest data, and carries the signals that link panels together (time range,
// crosshair, highlighted series, "open a chart of these series").
#pragma once

#include "document/dashboard.h"
#include "query/panelquery.h"

#include <QWidget>

class QLabel;
class QVBoxLayout;

namespace Headroom {

class PanelWidget : public QWidget
{
    Q_OBJECT
public:
    explicit PanelWidget(const DashboardPanel &config, QWidget *parent = nullptr);

    const DashboardPanel &config() const { return m_config; }
    const PanelData &data() const { return m_data; }
    // Stores the data and redraws (showData(); not render(), which QWidget has). Called on the GUI
    // thread with the result of queryPanel() for this panel.
    void setData(const PanelData &panelData);

    // Linked time axes: marks the instant ms (epoch) on a time panel; -1 removes the mark.
    // Panels without a time axis ignore it.
    virtual void setCrosshair(qint64 ms) { Q_UNUSED(ms) }
    // Emphasises the series whose labels include every label given (a shard picked in
    // the top-shards table: {set, shard}); empty labels clear the emphasis.
    virtual void setHighlight(const Labels &labels) { Q_UNUSED(labels) }
    // A finding in focus (the Findings dock): its onset marked on time panels (-1: none)
    // and its evidence series emphasised, the others dimmed (empty: no emphasis).
    virtual void setFindingFocus(qint64 onsetMs, const QList<SeriesKey> &evidence)
    {
        Q_UNUSED(onsetMs)
        Q_UNUSED(evidence)
    }

    // The height the panel's content needs, for a panel that is as tall as its content
    // (a USE matrix: its rows) rather than its grid rows; -1: the grid's height.
    virtual int fittedHeight() const { return -1; }

Q_SIGNALS:
    // fittedHeight() changed (rows came or went): the grid lays its rows out again.
    void fittedHeightChanged();
    // The user dragged over a time range (drag to zoom; every panel follows).
    void rangeSelected(qint64 fromMs, qint64 toMs);
    // The user selected a time window to explain (Shift+drag on a time panel): what
    // changed in it against the time before.
    void explainRequested(qint64 fromMs, qint64 toMs);
    // The mouse is over this instant of a time axis; -1 when it left.
    void crosshairMoved(qint64 ms);
    // The user picked something other panels should emphasise (see setHighlight).
    void highlightRequested(const Headroom::Labels &labels);
    // The user asked for a time chart of these series (a USE matrix cell was clicked).
    void chartRequested(const Headroom::DashboardPanel &chart);
    // The user acknowledged an alert instance's events up to upToMs (alert list).
    void alertAcknowledged(const QString &ruleId, const Headroom::SeriesKey &series, qint64 upToMs);

protected:
    virtual void showData() = 0;

    // The parts the panels built of a title over a view share, so they look alike:
    // the panel's title in bold; an engine's message line (plain text, grey, hidden
    // until showMessage() has one); a grey centred label for "nothing to show"; and the
    // panel's vertical layout (small margins).
    QLabel *newTitleLabel();
    QLabel *newMessageLabel();
    QLabel *newEmptyLabel(const QString &text);
    QVBoxLayout *newPanelLayout();
    // Shows PanelData::message (and its warnings as the tooltip) in a newMessageLabel().
    void showMessage(QLabel *label) const;

    DashboardPanel m_config;
    PanelData m_data;
};

} // namespace Headroom
