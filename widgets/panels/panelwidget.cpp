#include "panels/panelwidget.h"

namespace Headroom {

PanelWidget::PanelWidget(const DashboardPanel &config, QWidget *parent)
    : QWidget(parent)
    , m_config(config)
{
    m_data.panelId = config.id;
}

void PanelWidget::setData(const PanelData &panelData)
{
    m_data = panelData;
    showData();
}

} // namespace Headroom
