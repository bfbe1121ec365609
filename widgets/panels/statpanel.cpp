// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "panels/statpanel.h"

#include "core/shortnames.h"
#include "core/valueformat.h"
#include "literaltext.h"
#include "panels/panelfactory.h"
#include "query/panels/statpayload.h"

#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
// A tile's name wraps; beyond this it loses its middle.
constexpr int MaxTileNameChars = 60;

// Warning amber and critical red, as the USE matrix fills its cells, but dark enough to
// read as text on the panel's background.
QString levelStyle(int level)
{
    switch (level) {
    case 2:
        return u"color: #c62828;"_s;
    case 1:
        return u"color: #e65100;"_s;
    default:
        return QString();
    }
}

} // namespace

StatPanel::StatPanel(const DashboardPanel &config, QWidget *parent)
    : PanelWidget(config, parent)
    , m_title(newTitleLabel())
    , m_message(newMessageLabel())
    , m_tiles(new QWidget(this))
    , m_grid(new QGridLayout(m_tiles))
    , m_empty(newEmptyLabel(tr("No series")))
{
    m_grid->setContentsMargins(0, 0, 0, 0);
    QVBoxLayout *layout = newPanelLayout();
    layout->addWidget(m_title);
    layout->addWidget(m_message);
    layout->addWidget(m_tiles, 1);
    layout->addWidget(m_empty, 1);
    showData();
}

StatPanel::Tile StatPanel::newTile()
{
    Tile tile;
    tile.frame = new QWidget(m_tiles);
    auto *tileLayout = new QVBoxLayout(tile.frame);
    tileLayout->setContentsMargins(2, 2, 2, 2);
    tile.figure = plainTextLabel({}, tile.frame); // a unit may come from a target
    QFont large = tile.figure->font();
    large.setPointSizeF(large.pointSizeF() * 2.2);
    large.setBold(true);
    tile.figure->setFont(large);
    tile.figure->setAlignment(Qt::AlignCenter);
    tile.name = plainTextLabel({}, tile.frame); // labels come from targets: untrusted
    tile.name->setAlignment(Qt::AlignCenter);
    tile.name->setWordWrap(true);
    tileLayout->addWidget(tile.figure, 1);
    tileLayout->addWidget(tile.name);
    return tile;
}

void StatPanel::showData()
{
    showMessage(m_message);
    const StatData &stat = m_data.as<StatData>();
    QList<const StatFigure *> figures;
    for (const StatFigure &figure : stat.figures) {
        if (figure.series >= 0 && figure.series < m_data.series.size())
            figures.append(&figure);
    }
    // A live refresh keeps the tiles and changes their texts; only a change in the
    // number of series adds or removes tiles and places them again.
    const bool regrid = m_shown.size() != figures.size();
    while (m_shown.size() > figures.size())
        delete m_shown.takeLast().frame;
    while (m_shown.size() < figures.size())
        m_shown.append(newTile());
    // A near-square grid, wider than tall.
    const int columns = std::max(1, int(std::ceil(std::sqrt(double(figures.size())))));
    // Tiles side by side tell their series apart by what their names do not share
    // (the panel's title says the rest); the whole name is each tile's tooltip.
    QStringList names;
    for (const StatFigure *figure : std::as_const(figures)) {
        const PanelSeriesData &line = m_data.series.at(figure->series);
        names.append(line.name.isEmpty() ? seriesDisplayName(line.info) : line.name);
    }
    const QStringList shown = distinctShortNames(names, MaxTileNameChars);
    for (int i = 0; i < figures.size(); ++i) {
        const StatFigure &figure = *figures.at(i);
        const PanelSeriesData &line = m_data.series.at(figure.series);
        Tile &tile = m_shown[i];
        tile.figure->setText(formatUseValue(figure.value, line.info.unit));
        const int level = m_config.thresholds.level(figure.value); // NaN: 0
        if (level != tile.level) {
            tile.figure->setStyleSheet(levelStyle(level));
            tile.level = level;
        }
        tile.name->setText(shown.at(i));
        setLiteralToolTip(tile.name, names.at(i));
        if (regrid)
            m_grid->addWidget(tile.frame, i / columns, i % columns);
    }
    m_tiles->setVisible(!m_shown.isEmpty());
    m_empty->setVisible(m_shown.isEmpty());
}

QStringList StatPanel::figureTexts() const
{
    QStringList texts;
    for (const Tile &tile : m_shown)
        texts.append(tile.figure->text());
    return texts;
}

QStringList StatPanel::nameTexts() const
{
    QStringList texts;
    for (const Tile &tile : m_shown)
        texts.append(tile.name->text());
    return texts;
}

QList<int> StatPanel::levels() const
{
    QList<int> levels;
    for (const Tile &tile : m_shown)
        levels.append(tile.level);
    return levels;
}

template<>
PanelWidget *createPanelWidgetOf<PanelType::Stat>(const DashboardPanel &config, QWidget *parent)
{
    return new StatPanel(config, parent);
}

} // namespace Headroom
