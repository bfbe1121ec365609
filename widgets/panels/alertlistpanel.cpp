// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "panels/alertlistpanel.h"

#include "charts/alertcolors.h"
#include "itemmodels/alerteventmodel.h"
#include "literaltext.h"
#include "panels/panelfactory.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// Tints rows by severity, stronger while firing: the models stay GUI-free.
class SeverityTintModel : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role != Qt::BackgroundRole)
            return QIdentityProxyModel::data(index, role);
        const auto state = AlertState(index.data(AlertEventModel::StateRole).toInt());
        const auto severity = AlertSeverity(index.data(AlertEventModel::SeverityRole).toInt());
        QColor color = alertSeverityColor(severity);
        color.setAlpha(state == AlertState::Firing ? 70 : state == AlertState::Pending ? 35 : 0);
        return color.alpha() ? QVariant(color) : QVariant();
    }
};

// Filter choices: label and the states it keeps (empty: all).
const std::pair<const char *, QList<AlertState>> StateChoices[] = {
    { QT_TRANSLATE_NOOP("AlertListPanel", "All states"), {} },
    { QT_TRANSLATE_NOOP("AlertListPanel", "Firing"), { AlertState::Firing } },
    { QT_TRANSLATE_NOOP("AlertListPanel", "Pending or firing"),
      { AlertState::Pending, AlertState::Firing } },
    { QT_TRANSLATE_NOOP("AlertListPanel", "Resolved"), { AlertState::Resolved } },
};

} // namespace

AlertListPanel::AlertListPanel(const DashboardPanel &config, QWidget *parent)
    : PanelWidget(config, parent)
    , m_model(new AlertEventModel(this))
    , m_filter(new AlertEventFilterModel(this))
    , m_title(newTitleLabel())
    , m_stateFilter(new QComboBox(this))
    , m_severityFilter(new QComboBox(this))
    , m_acknowledge(new QPushButton(tr("Acknowledge"), this))
    , m_view(new QTableView(this))
    , m_summary(plainTextLabel({}, this))
{
    m_filter->setSourceModel(m_model);
    auto *tint = new SeverityTintModel(this);
    tint->setSourceModel(m_filter);

    for (const auto &[label, states] : StateChoices) {
        QVariantList values;
        for (AlertState state : states)
            values << int(state);
        m_stateFilter->addItem(tr(label), values);
    }
    m_severityFilter->addItem(tr("Any severity"), int(AlertSeverity::Info));
    m_severityFilter->addItem(tr("Warning or worse"), int(AlertSeverity::Warning));
    m_severityFilter->addItem(tr("Critical"), int(AlertSeverity::Critical));
    // Presets from the panel's options, by their names in files.
    const QJsonArray states = config.options.value("states"_L1).toArray();
    if (!states.isEmpty()) {
        QSet<AlertState> wanted;
        for (const auto &value : states)
            if (const auto state = alertStateFromName(value.toString()))
                wanted.insert(*state);
        for (int i = 0; i < m_stateFilter->count(); ++i) {
            QSet<AlertState> offered;
            for (const auto itemStates = m_stateFilter->itemData(i).toList();
                 const QVariant &v : itemStates)
                offered.insert(AlertState(v.toInt()));
            if (offered == wanted)
                m_stateFilter->setCurrentIndex(i);
        }
    }
    if (const auto minimum
        = alertSeverityFromName(config.options.value("minSeverity"_L1).toString()))
        m_severityFilter->setCurrentIndex(m_severityFilter->findData(int(*minimum)));
    connect(m_stateFilter, &QComboBox::currentIndexChanged, this, &AlertListPanel::applyFilters);
    connect(m_severityFilter, &QComboBox::currentIndexChanged, this, &AlertListPanel::applyFilters);

    m_view->setModel(tint);
    showItemToolTipsLiterally(m_view); // alert messages carry label values
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->setWordWrap(false);
    m_view->horizontalHeader()->setStretchLastSection(false);
    // Short columns fit their contents (the time in full); the message takes the rest.
    for (int column : { AlertEventModel::TimeColumn, AlertEventModel::StateColumn,
                        AlertEventModel::SeverityColumn, AlertEventModel::ValueColumn,
                        AlertEventModel::SeenColumn })
        m_view->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(AlertEventModel::MessageColumn,
                                                     QHeaderView::Stretch);
    m_view->setColumnHidden(AlertEventModel::SeriesColumn, true); // in the message and tooltip
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &AlertListPanel::updateButtons);
    connect(m_acknowledge, &QPushButton::clicked, this, &AlertListPanel::acknowledgeSelected);
    m_acknowledge->setToolTip(tr("Mark the selected pending or firing alerts as seen"));

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_title, 1);
    bar->addWidget(m_stateFilter);
    bar->addWidget(m_severityFilter);
    bar->addWidget(m_acknowledge);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_summary);
    applyFilters();
}

void AlertListPanel::applyFilters()
{
    QSet<AlertState> states;
    for (const auto chosen = m_stateFilter->currentData().toList(); const QVariant &v : chosen)
        states.insert(AlertState(v.toInt()));
    m_filter->setStates(states);
    m_filter->setMinimumSeverity(AlertSeverity(m_severityFilter->currentData().toInt()));
    updateButtons();
}

void AlertListPanel::showData()
{
    // Events before the range are there to know what was firing at its start; the list
    // shows the range.
    QList<AlertEvent> shown;
    for (const AlertEvent &event : std::as_const(m_data.alerts))
        if (event.tsMs >= m_data.fromMs && event.tsMs <= m_data.toMs)
            shown.append(event);
    m_model->setEvents(shown);
    int firing = 0;
    for (const auto spans = alertFiringSpans(m_data.alerts, m_data.toMs, m_data.toMs);
         const AlertSpan &span : spans)
        firing += span.open ? 1 : 0;
    m_summary->setText(shown.isEmpty() ? tr("No alert events in this range")
                                       : tr("%n event(s), ", nullptr, int(shown.size()))
                               + tr("%n firing now", nullptr, firing));
    updateButtons();
}

void AlertListPanel::updateButtons()
{
    bool any = false;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &row : rows) {
        const auto state = AlertState(row.data(AlertEventModel::StateRole).toInt());
        any = any
            || ((state == AlertState::Firing || state == AlertState::Pending)
                && !row.data(AlertEventModel::AcknowledgedRole).toBool());
    }
    m_acknowledge->setEnabled(any);
}

void AlertListPanel::acknowledgeSelected()
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &row : rows) {
        const QModelIndex source = m_filter->mapToSource(
            static_cast<const QIdentityProxyModel *>(m_view->model())->mapToSource(row));
        const AlertEvent *event = m_model->eventAt(source.row());
        if (!event || event->acknowledged
            || (event->state != AlertState::Firing && event->state != AlertState::Pending))
            continue;
        Q_EMIT alertAcknowledged(event->ruleId, event->series, event->tsMs);
    }
}

template<>
PanelWidget *createPanelWidgetOf<PanelType::Alerts>(const DashboardPanel &config, QWidget *parent)
{
    return new AlertListPanel(config, parent);
}

} // namespace Headroom
