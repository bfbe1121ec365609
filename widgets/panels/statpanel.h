// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The stat panel ("type": "stat"): one tile per series with its figure over the range
// in large type (query/panels/statpayload.h), the series' name under it, coloured by
// the panel's thresholds (orange at warning, red at critical).
#pragma once

#include "panels/panelwidget.h"

class QGridLayout;
class QLabel;

namespace Headroom {

class StatPanel : public PanelWidget
{
    Q_OBJECT
public:
    explicit StatPanel(const DashboardPanel &config, QWidget *parent = nullptr);

    // What the tiles show, in order: the figure as formatted ("93 %", "—" without a
    // sample) and the series' name; and each figure's threshold level (0 ok, 1 warning,
    // 2 critical).
    QStringList figureTexts() const;
    QStringList nameTexts() const;
    QList<int> levels() const;
    QLabel *emptyLabel() const { return m_empty; }

protected:
    void showData() override;

private:
    struct Tile
    {
        QWidget *frame = nullptr;
        QLabel *figure = nullptr;
        QLabel *name = nullptr;
        int level = -1; // the style set: 0 ok, 1 warning, 2 critical; -1 none yet
    };

    Tile newTile();

    QLabel *m_title;
    QLabel *m_message;
    QWidget *m_tiles;
    QGridLayout *m_grid;
    QLabel *m_empty;
    QList<Tile> m_shown;
};

} // namespace Headroom
