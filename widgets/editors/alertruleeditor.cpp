// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "editors/alertruleeditor.h"

#include "core/usernumber.h"
#include "document/dashboard.h"
#include "editors/alertpreviewchart.h"
#include "literaltext.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimer>
#include <QtConcurrentRun>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

QString numberText(double value)
{
    return qIsNaN(value) ? QString() : QString::number(value, 'g', 12);
}

QString durationText(qint64 ms)
{
    return ms > 0 ? formatDuration(ms) : u"0"_s;
}

} // namespace

AlertRuleEditor::AlertRuleEditor(const AlertRule &rule, const SeriesRegistry &registry,
                                 const SeriesStore *store, qint64 fromMs, qint64 toMs,
                                 QWidget *parent)
    : QDialog(parent)
    , m_registry(registry)
    , m_store(store)
    , m_fromMs(fromMs)
    , m_toMs(toMs)
    , m_rule(rule)
    , m_enabled(new QCheckBox(tr("Enabled"), this))
    , m_hint(new QPlainTextEdit(rule.hint, this))
    , m_message(plainTextLabel({}, this)) // problems quote the rule's text
    , m_previewText(plainTextLabel({}, this)) // alert messages carry label values
    , m_chart(new AlertPreviewChart(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
    , m_debounce(new QTimer(this))
{
    setWindowTitle(tr("Alert Rule — %1").arg(rule.name));
    const auto addLine
        = [&](const QString &field, const QString &text, const QString &placeholder) {
              auto *edit = new QLineEdit(text, this);
              edit->setPlaceholderText(placeholder);
              m_lines.insert(field, edit);
              connect(edit, &QLineEdit::textChanged, this, &AlertRuleEditor::validate);
              return edit;
          };
    const auto addCombo
        = [&](const QString &field, const QStringList &items, const QString &current) {
              auto *box = new QComboBox(this);
              box->addItems(items);
              box->setCurrentText(current);
              m_combos.insert(field, box);
              connect(box, &QComboBox::currentTextChanged, this, &AlertRuleEditor::validate);
              return box;
          };
    const QStringList comparisons { u">"_s, u">="_s, u"<"_s, u"<="_s };

    auto *form = new QFormLayout;
    form->addRow(tr("Name"), addLine(u"name"_s, rule.name, tr("what fires, e.g. CPU above 90 %")));
    form->addRow(tr("Id"), addLine(u"id"_s, rule.id, tr("stable id, e.g. cpu.high")));
    m_enabled->setChecked(rule.enabled);
    connect(m_enabled, &QCheckBox::toggled, this, &AlertRuleEditor::validate);
    form->addRow(QString(), m_enabled);
    auto *series = new QHBoxLayout;
    series->addWidget(addLine(u"source"_s, rule.selector.source, u"*"_s), 1);
    series->addWidget(addLine(u"metric"_s, rule.selector.metric, tr("metric, * allowed")), 3);
    series->addWidget(
        addLine(u"labels"_s,
                rule.selector.labels.isEmpty() ? QString() : labelsToString(rule.selector.labels),
                u"{cpu=all}"_s),
        2);
    form->addRow(tr("Series (source, metric, labels)"), series);
    QStringList reducers { u"last"_s,   u"avg"_s, u"min"_s, u"max"_s, u"rate"_s,
                           u"change"_s, u"p50"_s, u"p95"_s, u"p99"_s, u"p99.9"_s };
    if (!reducers.contains(alertReducerName(rule)))
        reducers << alertReducerName(rule);
    auto *reduce = new QHBoxLayout;
    QComboBox *reducer = addCombo(u"reducer"_s, reducers, alertReducerName(rule));
    reducer->setEditable(true); // any pNN
    reduce->addWidget(reducer);
    reduce->addWidget(new QLabel(tr("over"), this));
    reduce->addWidget(addLine(u"window"_s, durationText(rule.windowMs), u"1m"_s));
    reduce->addWidget(new QLabel(tr("baseline (change)"), this));
    reduce->addWidget(addLine(u"baseline"_s, durationText(rule.baselineMs), u"1h"_s));
    form->addRow(tr("Reduce"), reduce);
    auto *condition = new QHBoxLayout;
    condition->addWidget(
        addCombo(u"comparison"_s, comparisons, alertComparisonSymbol(rule.comparison)));
    condition->addWidget(addLine(u"threshold"_s, numberText(rule.threshold), u"90"_s), 1);
    condition->addWidget(new QLabel(tr("resolves at"), this));
    condition->addWidget(addLine(u"recoveryThreshold"_s, numberText(rule.recoveryThreshold),
                                 tr("same as threshold")),
                         1);
    condition->addWidget(new QLabel(tr("for"), this));
    condition->addWidget(addLine(u"for"_s, durationText(rule.forMs), u"0"_s));
    form->addRow(tr("Fires when"), condition);
    auto *guard = new QHBoxLayout;
    guard->addWidget(
        addLine(u"also.metric"_s, rule.also.metric, tr("optional, e.g. host.disk.queue")), 2);
    guard->addWidget(
        addCombo(u"also.comparison"_s, comparisons, alertComparisonSymbol(rule.also.comparison)));
    guard->addWidget(addLine(u"also.threshold"_s,
                             rule.also.isSet() ? numberText(rule.also.threshold) : QString(),
                             u"1"_s),
                     1);
    form->addRow(tr("And the same labels' metric"), guard);
    auto *handling = new QHBoxLayout;
    handling->addWidget(addCombo(u"severity"_s, { u"info"_s, u"warning"_s, u"critical"_s },
                                 alertSeverityName(rule.severity)));
    handling->addWidget(new QLabel(tr("no data:"), this));
    handling->addWidget(
        addCombo(u"noData"_s, { u"ok"_s, u"keep"_s, u"alert"_s }, alertNoDataName(rule.noData)));
    handling->addWidget(new QLabel(tr("after"), this));
    handling->addWidget(addLine(
        u"noDataAfter"_s, rule.noDataAfterMs > 0 ? formatDuration(rule.noDataAfterMs) : QString(),
        tr("3 × interval")));
    form->addRow(tr("Severity"), handling);
    form->addRow(
        tr("Message"),
        addLine(u"description"_s, rule.description, tr("{source}: CPU {value} ({label:cpu})")));
    form->addRow(tr("Unit"), addLine(u"unit"_s, rule.unit, tr("of the series")));
    m_hint->setPlaceholderText(tr("What to check when it fires"));
    m_hint->setMaximumHeight(70);
    connect(m_hint, &QPlainTextEdit::textChanged, this, &AlertRuleEditor::validate);
    form->addRow(tr("What to check"), m_hint);

    m_message->setWordWrap(true);
    m_message->setStyleSheet(u"color: #9b001c"_s);
    m_previewText->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_message);
    layout->addWidget(new QLabel(tr("Preview over the visible range:"), this));
    layout->addWidget(m_previewText);
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);
    connect(m_debounce, &QTimer::timeout, this, &AlertRuleEditor::startPreview);
    connect(&m_watcher, &QFutureWatcher<AlertPreview>::finished, this, [this] {
        m_preview = m_watcher.result();
        m_previewText->setText(m_preview.summary());
        m_chart->setPreview(m_preview, m_rule);
        if (std::exchange(m_previewAgain, false))
            startPreview();
        else
            Q_EMIT previewReady();
    });
    validate();
}

AlertRuleEditor::~AlertRuleEditor()
{
    m_watcher.waitForFinished(); // the task reads the store the caller owns
}

QLineEdit *AlertRuleEditor::line(const QString &field) const
{
    return m_lines.value(field);
}

QComboBox *AlertRuleEditor::combo(const QString &field) const
{
    return m_combos.value(field);
}

QString AlertRuleEditor::previewText() const
{
    return m_previewText->text();
}

void AlertRuleEditor::validate()
{
    AlertRule r = m_rule;
    QString problem;
    const auto fail = [&](const QString &field, const QString &reason) {
        if (problem.isEmpty())
            problem = field + u": "_s + reason;
    };
    const auto text = [&](const QString &field) { return m_lines.value(field)->text().trimmed(); };
    const auto number = [&](const QString &field, bool optional) {
        const QString t = text(field);
        if (t.isEmpty() && optional)
            return qQNaN();
        const std::optional<double> v = parseUserNumber(t); // "1.5", or "1,5" in German
        if (!v)
            fail(field, tr("must be a number"));
        return v.value_or(0);
    };
    const auto duration = [&](const QString &field, bool zeroAllowed) -> qint64 {
        const QString t = text(field);
        if (zeroAllowed && (t.isEmpty() || t == "0"_L1))
            return 0;
        const auto ms = parseDuration(t);
        if (!ms)
            fail(field, tr("must be a duration like 30s, 5m or 1h"));
        return ms.value_or(0);
    };
    r.name = text(u"name"_s);
    r.id = text(u"id"_s);
    r.enabled = m_enabled->isChecked();
    r.selector.source = text(u"source"_s).isEmpty() ? u"*"_s : text(u"source"_s);
    r.selector.metric = text(u"metric"_s);
    r.selector.labels.clear();
    if (!text(u"labels"_s).isEmpty()) {
        bool ok = false;
        QString labels = text(u"labels"_s);
        if (!labels.startsWith(u'{'))
            labels = u'{' + labels + u'}';
        r.selector.labels = labelsFromString(labels, &ok);
        if (!ok)
            fail(u"labels"_s, tr("must look like {name=value,other=value}"));
    }
    if (!parseAlertReducer(m_combos.value(u"reducer"_s)->currentText().trimmed(), &r.reducer,
                           &r.percentile))
        fail(u"reducer"_s, tr("must be last, avg, min, max, rate, change or pNN (e.g. p99)"));
    r.windowMs = duration(u"window"_s, false);
    r.baselineMs
        = r.reducer == AlertReducer::Change ? duration(u"baseline"_s, false) : m_rule.baselineMs;
    r.comparison = alertComparisonFromSymbol(m_combos.value(u"comparison"_s)->currentText())
                       .value_or(r.comparison);
    r.threshold = number(u"threshold"_s, false);
    r.recoveryThreshold = number(u"recoveryThreshold"_s, true);
    r.forMs = duration(u"for"_s, true);
    r.also.metric = text(u"also.metric"_s);
    r.also.comparison
        = alertComparisonFromSymbol(m_combos.value(u"also.comparison"_s)->currentText())
              .value_or(r.also.comparison);
    r.also.threshold = r.also.isSet() ? number(u"also.threshold"_s, false) : 0;
    r.severity
        = alertSeverityFromName(m_combos.value(u"severity"_s)->currentText()).value_or(r.severity);
    r.noData = alertNoDataFromName(m_combos.value(u"noData"_s)->currentText()).value_or(r.noData);
    r.noDataAfterMs = duration(u"noDataAfter"_s, true);
    r.description = text(u"description"_s);
    r.unit = text(u"unit"_s);
    r.hint = m_hint->toPlainText().trimmed();
    if (problem.isEmpty())
        if (const auto invalid = validateAlertRule(r))
            problem = invalid->field + u": "_s + invalid->reason;
    m_problem = problem;
    m_message->setText(problem);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
    if (!problem.isEmpty())
        return;
    m_rule = r;
    setWindowTitle(tr("Alert Rule — %1").arg(r.name));
    if (m_store)
        m_debounce->start();
    else
        m_previewText->setText(tr("No data to preview (no session)."));
}

void AlertRuleEditor::startPreview()
{
    if (m_watcher.isRunning()) {
        m_previewAgain = true; // the newest rule is previewed when this one is done
        return;
    }
    m_previewText->setText(tr("Replaying the range…"));
    const AlertRule rule = m_rule;
    const SeriesRegistry *registry = &m_registry;
    const SeriesStore *store = m_store;
    const qint64 from = m_fromMs;
    const qint64 to = m_toMs;
    m_watcher.setFuture(
        QtConcurrent::run([=] { return previewAlertRule(rule, *registry, *store, from, to); }));
}

std::optional<AlertRule> editAlertRule(QWidget *parent, const AlertRule &rule,
                                       const SeriesRegistry &registry, const SeriesStore *store,
                                       qint64 fromMs, qint64 toMs)
{
    AlertRuleEditor editor(rule, registry, store, fromMs, toMs, parent);
    if (editor.exec() != QDialog::Accepted || editor.rule() == rule)
        return std::nullopt;
    return editor.rule();
}

} // namespace Headroom
