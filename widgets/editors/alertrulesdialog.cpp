// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "editors/alertrulesdialog.h"

#include "document/alertrulejson.h"
#include "document/dashboard.h"
#include "editors/alertruleeditor.h"
#include "literaltext.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

QString conditionText(const AlertRule &rule)
{
    QString text = u"%1 over %2 %3 %4"_s
                       .arg(alertReducerName(rule), formatDuration(rule.windowMs),
                            alertComparisonSymbol(rule.comparison))
                       .arg(rule.threshold);
    if (rule.forMs > 0)
        text += u" for "_s + formatDuration(rule.forMs);
    return text;
}

} // namespace

AlertRulesDialog::AlertRulesDialog(const QString &pack, const QList<AlertRule> &own,
                                   const SeriesRegistry &registry, const SeriesStore *store,
                                   qint64 fromMs, qint64 toMs, QWidget *parent)
    : QDialog(parent)
    , m_pack(pack.isEmpty() ? QList<AlertRule> {}
                            : loadAlertPack(pack, nullptr).value_or(QList<AlertRule> {}))
    , m_own(own)
    , m_registry(registry)
    , m_store(store)
    , m_fromMs(fromMs)
    , m_toMs(toMs)
    , m_table(new QTableWidget(this))
    , m_edit(new QPushButton(tr("Edit…"), this))
    , m_duplicate(new QPushButton(tr("Duplicate…"), this))
    , m_remove(new QPushButton(tr("Remove"), this))
{
    setWindowTitle(pack.isEmpty() ? tr("Alert Rules") : tr("Alert Rules (pack \"%1\")").arg(pack));
    resize(900, 480);
    m_table->setColumnCount(5);
    m_table->setHorizontalHeaderLabels(
        { tr("Rule"), tr("Series"), tr("Condition"), tr("Severity"), tr("From") });
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    showItemToolTipsLiterally(m_table); // rules of a dashboard file
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row) { editRow(row); });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &AlertRulesDialog::updateButtons);
    auto *add = new QPushButton(tr("Add…"), this);
    connect(add, &QPushButton::clicked, this, [this] { addRule(); });
    connect(m_edit, &QPushButton::clicked, this, [this] { editRow(m_table->currentRow()); });
    connect(m_duplicate, &QPushButton::clicked, this, [this] { addRule(m_table->currentRow()); });
    connect(m_remove, &QPushButton::clicked, this, [this] { removeRow(m_table->currentRow()); });
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *row = new QHBoxLayout;
    row->addWidget(add);
    row->addWidget(m_edit);
    row->addWidget(m_duplicate);
    row->addWidget(m_remove);
    row->addStretch(1);
    row->addWidget(buttons);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addLayout(row);
    refill();
}

QList<AlertRule> AlertRulesDialog::allRules(QStringList *origins) const
{
    QList<AlertRule> all = m_pack;
    QStringList from(m_pack.size(), tr("pack"));
    for (const AlertRule &rule : std::as_const(m_own)) {
        const auto same = std::find_if(all.begin(), all.end(),
                                       [&](const AlertRule &r) { return r.id == rule.id; });
        if (same != all.end()) {
            from[same - all.begin()] = rule.enabled ? tr("pack, changed") : tr("pack, off");
            *same = rule;
        } else {
            all.append(rule);
            from << (rule.enabled ? tr("dashboard") : tr("dashboard, off"));
        }
    }
    if (origins)
        *origins = from;
    return all;
}

AlertRule AlertRulesDialog::effective(int row) const
{
    return allRules().value(row);
}

void AlertRulesDialog::refill()
{
    QStringList origins;
    const QList<AlertRule> all = allRules(&origins);
    m_table->setRowCount(int(all.size()));
    for (int i = 0; i < all.size(); ++i) {
        const AlertRule &rule = all[i];
        const QString series = rule.selector.source + u' ' + rule.selector.metric
            + (rule.selector.labels.isEmpty() ? QString() : labelsToString(rule.selector.labels));
        const QStringList cells { rule.name, series, conditionText(rule),
                                  alertSeverityName(rule.severity), origins[i] };
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            item->setToolTip(c == 0 ? rule.hint : cells[c]);
            if (!rule.enabled)
                item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
            m_table->setItem(i, c, item);
        }
    }
    updateButtons();
}

void AlertRulesDialog::updateButtons()
{
    const int row = m_table->currentRow();
    const bool any = row >= 0 && row < m_table->rowCount();
    m_edit->setEnabled(any);
    m_duplicate->setEnabled(any);
    m_remove->setEnabled(any);
    const bool fromPack = any && row < m_pack.size();
    const bool changed = fromPack
        && std::any_of(m_own.cbegin(), m_own.cend(),
                       [&](const AlertRule &r) { return r.id == m_pack[row].id; });
    // A pack rule cannot be deleted from the pack: it is switched off, or a changed one
    // goes back to the pack's version.
    m_remove->setText(!fromPack ? tr("Remove") : changed ? tr("Reset to Pack") : tr("Switch Off"));
}

bool AlertRulesDialog::editRow(int row)
{
    if (row < 0 || row >= m_table->rowCount())
        return false;
    const AlertRule current = effective(row);
    const auto edited = editAlertRule(this, current, m_registry, m_store, m_fromMs, m_toMs);
    if (!edited)
        return false;
    // A pack rule edited becomes the dashboard's rule of that id; so does a renamed id.
    m_own.removeIf([&](const AlertRule &r) { return r.id == current.id || r.id == edited->id; });
    m_own.append(*edited);
    refill();
    return true;
}

bool AlertRulesDialog::addRule(int copyOfRow)
{
    AlertRule rule;
    if (copyOfRow >= 0 && copyOfRow < m_table->rowCount()) {
        rule = effective(copyOfRow);
        rule.name += tr(" (copy)");
    } else {
        rule.name = tr("New rule");
        rule.selector.source = u"*"_s;
        rule.selector.metric = u"host.cpu.utilization"_s;
        rule.threshold = 90;
    }
    // A fresh id that no rule has.
    const QString base = copyOfRow >= 0 ? rule.id + u".copy"_s : u"rule"_s;
    for (int n = 1;; ++n) {
        rule.id = n == 1 ? base : base + QString::number(n);
        bool taken = false;
        for (int r = 0; r < m_table->rowCount(); ++r)
            taken = taken || effective(r).id == rule.id;
        if (!taken)
            break;
    }
    AlertRuleEditor editor(rule, m_registry, m_store, m_fromMs, m_toMs, this);
    if (editor.exec() != QDialog::Accepted)
        return false;
    m_own.append(editor.rule());
    refill();
    return true;
}

void AlertRulesDialog::removeRow(int row)
{
    if (row < 0 || row >= m_table->rowCount())
        return;
    const AlertRule rule = effective(row);
    const bool fromPack = row < m_pack.size();
    const bool changed = std::any_of(m_own.cbegin(), m_own.cend(),
                                     [&](const AlertRule &r) { return r.id == rule.id; });
    m_own.removeIf([&](const AlertRule &r) { return r.id == rule.id; });
    if (fromPack && !changed) {
        AlertRule off = rule;
        off.enabled = false;
        m_own.append(off);
    }
    refill();
}

std::optional<QList<AlertRule>> editAlertRules(QWidget *parent, const QString &pack,
                                               const QList<AlertRule> &own,
                                               const SeriesRegistry &registry,
                                               const SeriesStore *store, qint64 fromMs, qint64 toMs)
{
    AlertRulesDialog dialog(pack, own, registry, store, fromMs, toMs, parent);
    if (dialog.exec() != QDialog::Accepted || dialog.ownRules() == own)
        return std::nullopt;
    return dialog.ownRules();
}

} // namespace Headroom
