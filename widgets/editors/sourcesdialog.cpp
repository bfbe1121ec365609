// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "editors/sourcesdialog.h"

#include "core/conninfo.h"
#include "document/dashboardedit.h"
#include "literaltext.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
enum Column
{
    IdColumn,
    KindColumn,
    TargetColumn,
    IntervalColumn,
    StatusColumn,
    ColumnCount
};
} // namespace

SourcesDialog::SourcesDialog(const Dashboard &dashboard, StatusOf status,
                             SourceEditor::Tester tester, QWidget *parent)
    : QDialog(parent)
    , m_dashboard(dashboard)
    , m_status(std::move(status))
    , m_tester(std::move(tester))
    , m_table(new QTableWidget(this))
{
    setWindowTitle(tr("Sources"));
    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels(
        { tr("Id"), tr("Kind"), tr("Target"), tr("Every"), tr("Status") });
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(TargetColumn, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    showItemToolTipsLiterally(m_table); // targets of a dashboard file, sources' status
    connect(m_table, &QTableWidget::cellDoubleClicked, this,
            [this](int row, int) { editSource(row); });

    auto *add = new QToolButton(this);
    add->setObjectName(u"add"_s);
    add->setText(tr("Add"));
    add->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(add);
    for (const auto &[plugin, label] :
         { std::pair { u"host"_s, tr("Host (local, ssh://, node_exporter)…") },
           std::pair { u"nic"_s, tr("Network Interfaces…") },
           std::pair { u"postgres"_s, tr("PostgreSQL Server…") },
           std::pair { u"prometheus"_s, tr("Prometheus Exporter…") } }) {
        QAction *action = menu->addAction(label);
        action->setObjectName(u"add:"_s + plugin);
        connect(action, &QAction::triggered, this, [this, plugin] { addSource(plugin); });
    }
    add->setMenu(menu);
    m_edit = new QPushButton(tr("Edit…"), this);
    m_remove = new QPushButton(tr("Remove"), this);
    connect(m_edit, &QPushButton::clicked, this, [this] { editSource(m_table->currentRow()); });
    connect(m_remove, &QPushButton::clicked, this, [this] { removeSource(m_table->currentRow()); });
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) {
        m_edit->setEnabled(row >= 0);
        m_remove->setEnabled(row >= 0);
    });
    auto *row = new QHBoxLayout;
    row->addWidget(add);
    row->addWidget(m_edit);
    row->addWidget(m_remove);
    row->addStretch(1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addLayout(row);
    layout->addWidget(buttons);
    refill();
    resize(900, 420);
}

QString SourcesDialog::targetOf(const DashboardSource &source)
{
    const QJsonObject &config = source.config;
    if (source.plugin == u"host" || source.plugin == u"nic")
        return config.value(u"host"_s).toString(u"local"_s);
    if (source.plugin == u"postgres") {
        const QString conninfo = config.value(u"conninfo"_s).toString();
        return conninfo.isEmpty() ? tr("libpq defaults") : conninfoWithoutPassword(conninfo);
    }
    if (source.plugin == u"prometheus" || source.plugin == PromqlPlugin)
        return config.value(u"url"_s).toString();
    return {};
}

void SourcesDialog::refill()
{
    const int current = m_table->currentRow();
    m_table->setRowCount(int(m_dashboard.sources.size()));
    for (int r = 0; r < m_dashboard.sources.size(); ++r) {
        const DashboardSource &s = m_dashboard.sources.at(r);
        const QString cells[ColumnCount] = {
            s.id,
            s.plugin,
            targetOf(s),
            tr("%1 s").arg(s.intervalMs / 1000.0),
            m_status ? m_status(s.id) : QString(),
        };
        for (int c = 0; c < ColumnCount; ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            item->setToolTip(cells[c]);
            m_table->setItem(r, c, item);
        }
    }
    m_table->resizeColumnToContents(IdColumn);
    m_table->resizeColumnToContents(KindColumn);
    m_table->setCurrentCell(std::min(current, int(m_dashboard.sources.size()) - 1), 0);
    m_edit->setEnabled(m_table->currentRow() >= 0);
    m_remove->setEnabled(m_table->currentRow() >= 0);
}

QStringList SourcesDialog::idsExcept(int row) const
{
    QStringList ids;
    for (int r = 0; r < m_dashboard.sources.size(); ++r) {
        if (r != row)
            ids.append(m_dashboard.sources.at(r).id);
    }
    return ids;
}

DashboardSource SourcesDialog::newSource(const QString &plugin) const
{
    DashboardSource source;
    source.plugin = plugin;
    const QStringList ids = idsExcept(-1);
    const QString base = plugin == u"postgres" ? u"pg"_s : plugin;
    source.id = base;
    for (int n = 2; ids.contains(source.id); ++n)
        source.id = base + u'-' + QString::number(n);
    if (plugin == u"host" || plugin == u"nic")
        source.config.insert(u"host"_s, u"local"_s);
    else if (plugin == u"prometheus")
        source.config.insert(u"url"_s, u"http://127.0.0.1:9100/metrics"_s);
    else if (plugin == PromqlPlugin)
        source.config.insert(u"url"_s, u"http://127.0.0.1:9090"_s);
    return source;
}

bool SourcesDialog::runEditor(SourceEditor *editor)
{
    return m_editorRun ? m_editorRun(editor) : editor->exec() == QDialog::Accepted;
}

void SourcesDialog::addSource(const QString &plugin)
{
    SourceEditor editor(newSource(plugin), idsExcept(-1), m_tester, this);
    if (!runEditor(&editor) || !editor.problem().isEmpty())
        return;
    m_dashboard.sources.append(editor.source());
    refill();
    m_table->setCurrentCell(int(m_dashboard.sources.size()) - 1, 0);
}

void SourcesDialog::editSource(int row)
{
    if (row < 0 || row >= m_dashboard.sources.size())
        return;
    SourceEditor editor(m_dashboard.sources.at(row), idsExcept(row), m_tester, this);
    if (!runEditor(&editor) || !editor.problem().isEmpty())
        return;
    const QString oldId = m_dashboard.sources.at(row).id;
    m_dashboard.sources[row] = editor.source();
    if (editor.source().id != oldId)
        renameSource(m_dashboard, oldId, editor.source().id);
    refill();
}

QString SourcesDialog::problem() const
{
    return dashboardProblem(m_dashboard);
}

void SourcesDialog::accept()
{
    if (const QString why = problem(); !why.isEmpty()) {
        QMessageBox::warning(
            this, tr("Sources not applied"),
            literalAutoText(tr("The dashboard would not open again with these sources:\n%1\n\n"
                               "Remove or change what still reads a removed source "
                               "(Dashboard ▸ Edit Panels…), or keep the source.")
                                .arg(why)));
        return;
    }
    QDialog::accept();
}

void SourcesDialog::removeSource(int row)
{
    if (row < 0 || row >= m_dashboard.sources.size())
        return;
    m_dashboard.sources.removeAt(row);
    refill();
}

} // namespace Headroom
