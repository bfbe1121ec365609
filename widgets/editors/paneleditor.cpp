// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "editors/paneleditor.h"

#include "core/legendtemplate.h"
#include "core/usernumber.h"
#include "document/dashboardedit.h"
#include "document/dashboardlimits.h"
#include "document/panels/paneltyperules.h"
#include "editors/seriespicker.h"
#include "literaltext.h"
#include "query/panels/paneldescriptor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

QString boundText(double value)
{
    return qIsNaN(value) ? QString()
                         : QLocale::c().toString(value, 'g', QLocale::FloatingPointShortest);
}

// Empty is "unset" (NaN). "0.5" is read the C way first so that the text this dialog
// wrote reads back the same in every locale, then the user's way ("0,5").
bool parseBound(const QString &text, double *value)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty()) {
        *value = qQNaN();
        return true;
    }
    const std::optional<double> parsed = parseUserNumber(trimmed);
    if (!parsed)
        return false;
    *value = *parsed;
    return true;
}

} // namespace

PanelEditor::PanelEditor(const DashboardPanel &panel, const SeriesRegistry &registry,
                         QWidget *parent)
    : QDialog(parent)
    , m_original(panel)
    , m_type(new QComboBox(this))
    , m_title(new QLineEdit(panel.title, this))
    , m_unit(new QLineEdit(panel.unit, this))
    , m_legend(new QLineEdit(panel.legend, this))
    , m_yScale(new QComboBox(this))
    , m_warning(new QLineEdit(boundText(panel.thresholds.warning), this))
    , m_critical(new QLineEdit(boundText(panel.thresholds.critical), this))
    , m_higherIsWorse(new QCheckBox(tr("Higher values are worse"), this))
    , m_query(new QPlainTextEdit(panel.query, this))
    , m_querySource(new QComboBox(this))
    , m_seriesList(new QListWidget(this))
    , m_remove(new QPushButton(tr("Remove"), this))
    , m_picker(new SeriesPicker(registry, this))
    , m_message(plainTextLabel({}, this)) // problems quote the file's text
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(panel.title.isEmpty() ? tr("Panel") : tr("Panel — %1").arg(panel.title));
    m_type->setObjectName(u"type"_s);
    m_title->setObjectName(u"title"_s);
    m_unit->setObjectName(u"unit"_s);
    m_legend->setObjectName(u"legend"_s);
    m_legend->setMaxLength(DashboardLimits::MaximumNameLength);
    m_legend->setPlaceholderText(tr("label values, e.g. {interface} {metric}"));
    m_legend->setToolTip(tr("Names each line from its labels: {label}, or {metric}, {source}, "
                            "{unit}, {statement}; {{ and }} are braces"));
    // What a dashboard file may hold (dashboardlimits.h), so a saved edit loads back.
    m_title->setMaxLength(DashboardLimits::MaximumNameLength);
    m_unit->setMaxLength(DashboardLimits::MaximumNameLength);
    m_yScale->setObjectName(u"yScale"_s);
    m_warning->setObjectName(u"warning"_s);
    m_critical->setObjectName(u"critical"_s);
    m_higherIsWorse->setObjectName(u"higherIsWorse"_s);
    m_query->setObjectName(u"query"_s);
    m_querySource->setObjectName(u"querySource"_s);
    m_seriesList->setObjectName(u"panelSeries"_s);
    m_remove->setObjectName(u"removeSeries"_s);
    m_message->setObjectName(u"message"_s);

    // Named as in files; the item data is the PanelType.
    for (PanelType type : AllPanelTypes)
        m_type->addItem(panelTypeName(type), int(type));
    m_type->setCurrentIndex(m_type->findData(int(panel.type)));
    m_unit->setPlaceholderText(tr("the series' own unit"));
    m_yScale->addItem(tr("Linear"), yScaleName(YScale::Linear));
    m_yScale->addItem(tr("Logarithmic"), yScaleName(YScale::Log));
    m_yScale->setCurrentIndex(panel.yScale == YScale::Log ? 1 : 0);
    m_warning->setPlaceholderText(tr("none"));
    m_critical->setPlaceholderText(tr("none"));
    m_higherIsWorse->setChecked(panel.thresholds.higherIsWorse);
    m_higherIsWorse->setToolTip(tr("Clear it for values that are bad when low (free memory, "
                                   "cache hit ratio)"));
    m_query->setPlaceholderText(tr("a PromQL expression, instead of series, e.g. "
                                   "rate(node_network_receive_bytes_total{instance=~\"$host\"}"
                                   "[1m])"));
    m_query->setToolTip(tr("Asked of the engine for the visible range (an instant query at the "
                           "range's end for a table); $variables are the dashboard's"));
    m_query->setTabChangesFocus(true);
    m_query->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_query->setFixedHeight(m_query->fontMetrics().lineSpacing() * 4);
    m_querySource->setToolTip(tr("The dashboard's promql source the query is asked of"));
    m_querySource->setEnabled(false); // until setDashboard() names the engines
    if (!panel.querySource.isEmpty())
        m_querySource->addItem(panel.querySource, panel.querySource);
    m_seriesList->setSelectionMode(QAbstractItemView::ExtendedSelection);
    showItemToolTipsLiterally(m_seriesList); // selectors name label values
    m_message->setWordWrap(true);
    QPalette warningPalette = m_message->palette();
    warningPalette.setColor(QPalette::WindowText, QColor(0xb0, 0x20, 0x20));
    m_message->setPalette(warningPalette);

    auto *form = new QFormLayout;
    form->addRow(tr("&Type:"), m_type);
    form->addRow(tr("T&itle:"), m_title);
    form->addRow(tr("&Unit:"), m_unit);
    form->addRow(tr("&Legend:"), m_legend);
    form->addRow(tr("&Y scale:"), m_yScale);
    form->addRow(tr("&Warning at:"), m_warning);
    form->addRow(tr("&Critical at:"), m_critical);
    form->addRow(QString(), m_higherIsWorse);
    form->addRow(tr("PromQL &query:"), m_query);
    form->addRow(tr("&Engine:"), m_querySource);

    auto *left = new QVBoxLayout;
    left->addLayout(form);
    left->addWidget(new QLabel(tr("Series on this panel:"), this));
    left->addWidget(m_seriesList, 1);
    left->addWidget(m_remove, 0, Qt::AlignLeft);

    auto *addButton = new QPushButton(tr("&Add Selected"), this);
    addButton->setObjectName(u"addSeries"_s);
    addButton->setAutoDefault(false);
    m_remove->setAutoDefault(false);
    auto *right = new QVBoxLayout;
    right->addWidget(new QLabel(tr("Add series (double click or Enter):"), this));
    right->addWidget(m_picker, 1);
    right->addWidget(addButton, 0, Qt::AlignLeft);

    auto *columns = new QHBoxLayout;
    columns->addLayout(left, 1);
    columns->addLayout(right, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(m_message);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        if (m_problem.isEmpty())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_type, &QComboBox::currentTextChanged, this, &PanelEditor::validate);
    connect(m_picker, &SeriesPicker::seriesChosen, this, &PanelEditor::addSeries);
    connect(addButton, &QPushButton::clicked, this,
            [this] { addSeries(m_picker->selectedSelectors()); });
    connect(m_remove, &QPushButton::clicked, this, &PanelEditor::removeSelectedSeries);
    connect(m_seriesList, &QListWidget::itemSelectionChanged, this,
            [this] { m_remove->setEnabled(!m_seriesList->selectedItems().isEmpty()); });
    for (QLineEdit *edit : { m_warning, m_critical, m_legend })
        connect(edit, &QLineEdit::textChanged, this, &PanelEditor::validate);
    connect(m_higherIsWorse, &QCheckBox::toggled, this, &PanelEditor::validate);
    connect(m_query, &QPlainTextEdit::textChanged, this, &PanelEditor::validate);
    connect(m_querySource, &QComboBox::currentIndexChanged, this, &PanelEditor::validate);

    m_remove->setEnabled(false);
    addSeries(panel.series);
    validate();
    resize(900, 560);
    m_picker->filterEdit()->setFocus();
}

DashboardPanel PanelEditor::panel() const
{
    DashboardPanel panel = m_original;
    panel.type = currentType();
    // Options belong to a type (document/panels/): another type starts without them.
    if (panel.type != m_original.type)
        panel.options = {};
    panel.title = m_title->text().trimmed();
    panel.unit = m_unit->text().trimmed();
    panel.legend = m_legend->text().trimmed();
    panel.yScale = yScaleFromName(m_yScale->currentData().toString()).value_or(YScale::Linear);
    panel.series = m_series;
    panel.query = currentQuery();
    // Unnamed, the query goes to the dashboard's only engine: kept unnamed unless the
    // user picks one (an engine added later then asks which).
    const QString source = m_querySource->currentData().toString();
    panel.querySource
        = panel.query.isEmpty() || (m_querySource->count() == 1 && m_original.querySource.isEmpty())
        ? QString()
        : source;
    PanelThresholds thresholds;
    thresholds.higherIsWorse = m_higherIsWorse->isChecked();
    parseBound(m_warning->text(), &thresholds.warning);
    parseBound(m_critical->text(), &thresholds.critical);
    panel.thresholds = thresholds;
    return panel;
}

PanelType PanelEditor::currentType() const
{
    return PanelType(m_type->currentData().toInt());
}

QString PanelEditor::currentQuery() const
{
    return m_query->toPlainText().trimmed();
}

void PanelEditor::setDashboard(const Dashboard &dashboard)
{
    m_dashboard = dashboard;
    const QString chosen = m_querySource->currentData().toString();
    m_querySource->clear();
    for (const DashboardSource &source : dashboard.sources) {
        if (source.plugin == PromqlPlugin)
            m_querySource->addItem(source.id, source.id);
    }
    m_querySource->setCurrentIndex(std::max(0, m_querySource->findData(chosen)));
    m_querySource->setEnabled(m_querySource->count() > 1);
    m_query->setEnabled(m_querySource->count() > 0 || !currentQuery().isEmpty());
    if (m_querySource->count() == 0)
        m_query->setPlaceholderText(tr("the dashboard has no promql source to ask (add one in "
                                       "Sources)"));
    validate();
}

void PanelEditor::addSeries(const QList<SeriesSelector> &selectors)
{
    for (const SeriesSelector &selector : selectors) {
        if (m_series.contains(selector))
            continue;
        m_series.append(selector);
        auto *item = new QListWidgetItem(SeriesPicker::describe(selector), m_seriesList);
        item->setToolTip(item->text());
    }
    validate();
}

void PanelEditor::removeSelectedSeries()
{
    // Highest row first so the remaining rows keep their numbers.
    QList<int> rows;
    for (const auto items = m_seriesList->selectedItems(); const QListWidgetItem *item : items)
        rows.append(m_seriesList->row(item));
    std::sort(rows.begin(), rows.end(), std::greater<>());
    for (int row : std::as_const(rows)) {
        delete m_seriesList->takeItem(row);
        m_series.removeAt(row);
    }
    validate();
}

void PanelEditor::validate()
{
    double warning = qQNaN();
    double critical = qQNaN();
    const bool higherIsWorse = m_higherIsWorse->isChecked();
    // The alert list shows the dashboard's alert events; it reads no series. A panel
    // reads series or a PromQL query, and a table panel only a query.
    const bool hasQuery = !currentQuery().isEmpty();
    // A fleet USE matrix reads the PromQL queries of its options (kept as they are).
    const bool readsOptionQueries = currentType() == PanelType::UseMatrix
        && !panel().options.value(u"queries"_s).toArray().isEmpty();
    const PanelTypeRules &rules = panelTypeRules(currentType());
    if (rules.query == PanelQueryUse::Required && !hasQuery)
        m_problem
            = tr("Write the PromQL query: %1.").arg(QString::fromUtf16(rules.queryRequiredBecause));
    else if (hasQuery && !m_series.isEmpty())
        m_problem = tr("A panel reads series or a PromQL query, not both: remove the series "
                       "or clear the query.");
    else if (hasQuery && currentQuery().size() > DashboardLimits::MaximumQueryLength)
        m_problem = tr("The query is longer than %1 characters.")
                        .arg(DashboardLimits::MaximumQueryLength);
    else if (hasQuery && rules.query == PanelQueryUse::None)
        m_problem
            = tr("A panel with a PromQL query is a %1 panel.").arg(panelTypesReadingQueries(u"or"));
    else if (m_series.isEmpty() && !hasQuery && !readsOptionQueries
             && panelDescriptor(currentType()).readsSeries)
        m_problem = tr("Add at least one series: the panel would be empty.");
    else if (QString error; !LegendTemplate::parse(m_legend->text().trimmed(), &error))
        m_problem = tr("Legend: %1.").arg(error);
    else if (!parseBound(m_warning->text(), &warning))
        m_problem = tr("Warning threshold: not a number (leave it empty for none).");
    else if (!parseBound(m_critical->text(), &critical))
        m_problem = tr("Critical threshold: not a number (leave it empty for none).");
    else if (!qIsNaN(warning) && !qIsNaN(critical) && higherIsWorse && critical < warning)
        m_problem = tr("Critical must not be below warning when higher values are worse.");
    else if (!qIsNaN(warning) && !qIsNaN(critical) && !higherIsWorse && critical > warning)
        m_problem = tr("Critical must not be above warning when lower values are worse.");
    else
        m_problem = problemInDashboard();
    m_message->setText(m_problem);
    m_message->setVisible(!m_problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_problem.isEmpty());
}

QString PanelEditor::problemInDashboard() const
{
    if (!m_dashboard)
        return {};
    Dashboard edited = *m_dashboard;
    if (!m_original.id.isEmpty() && edited.panel(m_original.id))
        replacePanel(edited, m_original.id, panel());
    else
        addPanel(edited, panel());
    const QString problem = dashboardProblem(edited);
    return problem.isEmpty() ? QString() : tr("Would not load back: %1.").arg(problem);
}

std::optional<DashboardPanel> editPanel(QWidget *parent, const Dashboard &dashboard,
                                        const DashboardPanel &panel, const SeriesRegistry &registry)
{
    PanelEditor editor(panel, registry, parent);
    editor.setDashboard(dashboard);
    if (editor.exec() != QDialog::Accepted)
        return std::nullopt;
    DashboardPanel edited = editor.panel();
    if (edited == panel)
        return std::nullopt;
    return edited;
}

} // namespace Headroom
