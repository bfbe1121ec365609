// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "editors/sourceeditor.h"

#include "core/conninfo.h"
#include "document/dashboardlimits.h"
#include "literaltext.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrentRun>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
const QString HostHint
    = QStringLiteral("local, ssh://user@server[:port], or http://server:9100/metrics");

// The value of key among a connection string's pairs ("" when it has none).
QString valueOf(const QList<std::pair<QString, QString>> &pairs, const QString &key)
{
    for (const auto &[k, v] : pairs) {
        if (k == key)
            return v;
    }
    return {};
}

// The keywords the fields show; any other keyword of the string stays as it is.
const QStringList FieldKeys { QStringLiteral("host"), QStringLiteral("port"),
                              QStringLiteral("dbname"), QStringLiteral("user"),
                              QStringLiteral("sslmode") };
} // namespace

QString SourceEditor::conninfoFromFields(const QString &host, const QString &port,
                                         const QString &dbname, const QString &user,
                                         const QString &sslmode)
{
    QStringList parts;
    for (const auto &[key, value] :
         { std::pair { u"host"_s, host }, std::pair { u"port"_s, port },
           std::pair { u"dbname"_s, dbname }, std::pair { u"user"_s, user },
           std::pair { u"sslmode"_s, sslmode } }) {
        if (!value.trimmed().isEmpty())
            parts.append(conninfoPair(key, value.trimmed()));
    }
    return parts.join(u' ');
}

SourceEditor::SourceEditor(const DashboardSource &source, const QStringList &otherIds,
                           Tester tester, QWidget *parent)
    : QDialog(parent)
    , m_original(source)
    , m_otherIds(otherIds)
    , m_tester(std::move(tester))
{
    setWindowTitle(tr("Source: %1").arg(source.plugin));
    auto *form = new QFormLayout;
    m_id = new QLineEdit(source.id);
    m_id->setObjectName(u"id"_s);
    form->addRow(tr("Id (the series' source)"), m_id);
    m_interval = new QSpinBox;
    m_interval->setObjectName(u"interval"_s);
    m_interval->setRange(1, 3600);
    m_interval->setSuffix(tr(" s"));
    m_interval->setValue(std::max(1, source.intervalMs / 1000));
    form->addRow(tr("Poll every"), m_interval);

    const QJsonObject &config = source.config;
    if (source.plugin == u"host" || source.plugin == u"nic") {
        m_host = new QLineEdit(config.value(u"host"_s).toString(u"local"_s));
        m_host->setObjectName(u"host"_s);
        m_host->setPlaceholderText(HostHint);
        m_host->setToolTip(HostHint);
        form->addRow(tr("Host"), m_host);
    }
    if (source.plugin == u"nic") {
        QStringList names;
        for (const auto interfaces = config.value(u"interfaces"_s).toArray();
             const auto &name : interfaces)
            names.append(name.toString());
        m_interfaces = new QLineEdit(names.join(u", "_s));
        m_interfaces->setObjectName(u"interfaces"_s);
        m_interfaces->setPlaceholderText(tr("every interface but the loopback"));
        form->addRow(tr("Interfaces"), m_interfaces);
    } else if (source.plugin == u"postgres") {
        addPostgresFields(form);
    } else if (source.plugin == u"prometheus" || source.plugin == PromqlPlugin) {
        const bool engine = source.plugin == PromqlPlugin;
        m_url = new QLineEdit(config.value(u"url"_s).toString());
        m_url->setObjectName(u"url"_s);
        m_url->setPlaceholderText(engine ? u"http://server:9090"_s
                                         : u"http://server:9100/metrics"_s);
        form->addRow(engine ? tr("Engine URL (PromQL)") : tr("Metrics URL"), m_url);
    } else if (source.plugin != u"host") {
        form->addRow(new QLabel(tr("This plugin's options are edited in the dashboard file.")));
    }

    m_problem = plainTextLabel(); // problems quote what was typed or read
    m_problem->setObjectName(u"problem"_s);
    m_problem->setStyleSheet(u"color: #b00020"_s);
    m_result = new QLabel;
    m_result->setObjectName(u"testResult"_s);
    m_result->setTextFormat(Qt::PlainText); // a server's words are untrusted text
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_test = new QPushButton(tr("Test Connection"));
    m_test->setObjectName(u"test"_s);
    connect(m_test, &QPushButton::clicked, this, &SourceEditor::testConnection);
    connect(&m_watcher, &QFutureWatcher<SourceProbeResult>::finished, this, [this] {
        m_result->setText(describeProbe(m_watcher.result()));
        m_test->setEnabled(true);
        Q_EMIT tested();
    });
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->addButton(m_test, QDialogButtonBox::ActionRole);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_result, 1);
    layout->addWidget(m_buttons);
    for (const auto edits = findChildren<QLineEdit *>(); QLineEdit * edit : edits)
        connect(edit, &QLineEdit::textChanged, this, &SourceEditor::updateProblem);
    updateProblem();
    resize(620, sizeHint().height());
}

SourceEditor::~SourceEditor()
{
    // No wait: a poll may take the source's whole timeout, and Cancel must not freeze
    // the window. The probe sees the flag between polls; its result is dropped.
    if (m_cancel)
        m_cancel->store(true);
}

void SourceEditor::addPostgresFields(QFormLayout *form)
{
    const QString conninfo = m_original.config.value(u"conninfo"_s).toString();
    const auto pairs = conninfoKeywords(conninfo);
    const auto field = [&](const QString &name, const QString &key, const QString &label,
                           const QString &placeholder) {
        auto *edit = new QLineEdit(pairs ? valueOf(*pairs, key) : QString());
        edit->setObjectName(name);
        edit->setPlaceholderText(placeholder);
        edit->setEnabled(pairs.has_value());
        form->addRow(label, edit);
        return edit;
    };
    m_pgHost = field(u"pgHost"_s, u"host"_s, tr("Server"), tr("PGHOST or a local socket"));
    m_pgPort = field(u"pgPort"_s, u"port"_s, tr("Port"), u"5432"_s);
    m_pgDatabase = field(u"pgDatabase"_s, u"dbname"_s, tr("Database"), tr("the user's name"));
    m_pgUser = field(u"pgUser"_s, u"user"_s, tr("User"), tr("your login name"));
    m_pgSslMode = new QComboBox;
    m_pgSslMode->setObjectName(u"pgSslMode"_s);
    m_pgSslMode->addItems({ QString(), u"disable"_s, u"allow"_s, u"prefer"_s, u"require"_s,
                            u"verify-ca"_s, u"verify-full"_s });
    m_pgSslMode->setCurrentText(pairs ? valueOf(*pairs, u"sslmode"_s) : QString());
    m_pgSslMode->setEnabled(pairs.has_value());
    form->addRow(tr("SSL mode"), m_pgSslMode);
    m_conninfo = new QLineEdit(conninfo);
    m_conninfo->setObjectName(u"conninfo"_s);
    m_conninfo->setPlaceholderText(tr("empty: libpq's defaults (PGHOST, PGPORT, service file…)"));
    form->addRow(tr("Connection string"), m_conninfo);
    form->addRow(new QLabel(tr("No password here: libpq reads ~/.pgpass, PGPASSWORD or a "
                               "service file, and dashboards never hold one.")));
    for (QLineEdit *edit : { m_pgHost, m_pgPort, m_pgDatabase, m_pgUser })
        connect(edit, &QLineEdit::textEdited, this, &SourceEditor::updateConninfo);
    connect(m_pgSslMode, &QComboBox::activated, this, &SourceEditor::updateConninfo);
    // A string the fields cannot show (a URI, ${variable}, other keywords) is edited as
    // it is; typed by hand, the fields step aside.
    connect(m_conninfo, &QLineEdit::textEdited, this, [this](const QString &text) {
        const auto typed = conninfoKeywords(text);
        for (QWidget *w : std::initializer_list<QWidget *> { m_pgHost, m_pgPort, m_pgDatabase,
                                                             m_pgUser, m_pgSslMode })
            w->setEnabled(typed.has_value());
        if (typed) {
            m_pgHost->setText(valueOf(*typed, u"host"_s));
            m_pgPort->setText(valueOf(*typed, u"port"_s));
            m_pgDatabase->setText(valueOf(*typed, u"dbname"_s));
            m_pgUser->setText(valueOf(*typed, u"user"_s));
            m_pgSslMode->setCurrentText(valueOf(*typed, u"sslmode"_s));
        }
    });
}

void SourceEditor::updateConninfo()
{
    // The fields are only enabled while the string parses; keywords they do not show
    // (connect_timeout, service...) stay, after them, in their order.
    const auto pairs = conninfoKeywords(m_conninfo->text());
    if (!pairs)
        return;
    QStringList parts { conninfoFromFields(m_pgHost->text(), m_pgPort->text(), m_pgDatabase->text(),
                                           m_pgUser->text(), m_pgSslMode->currentText()) };
    for (const auto &[key, value] : *pairs) {
        if (!FieldKeys.contains(key))
            parts.append(conninfoPair(key, value));
    }
    parts.removeAll(QString());
    m_conninfo->setText(parts.join(u' '));
}

DashboardSource SourceEditor::source() const
{
    DashboardSource source = m_original;
    source.id = m_id->text().trimmed();
    // Shown in whole seconds: a 500 ms or 1500 ms interval stays as it is unless the
    // user changes the figure.
    if (m_interval->value() != std::max(1, m_original.intervalMs / 1000))
        source.intervalMs = m_interval->value() * 1000;
    const auto setOrRemove = [&](const QString &key, const QJsonValue &value, bool keep) {
        if (keep)
            source.config.insert(key, value);
        else
            source.config.remove(key);
    };
    if (m_host)
        setOrRemove(u"host"_s, m_host->text().trimmed(), true);
    if (m_interfaces) {
        QJsonArray names;
        for (const auto typed = m_interfaces->text().split(u',', Qt::SkipEmptyParts);
             const QString &name : typed) {
            if (!name.trimmed().isEmpty())
                names.append(name.trimmed());
        }
        setOrRemove(u"interfaces"_s, names, !names.isEmpty());
    }
    if (m_conninfo)
        setOrRemove(u"conninfo"_s, m_conninfo->text().trimmed(),
                    !m_conninfo->text().trimmed().isEmpty());
    if (m_url)
        setOrRemove(u"url"_s, m_url->text().trimmed(), true);
    return source;
}

QString SourceEditor::problem() const
{
    const QString id = m_id->text().trimmed();
    if (id.isEmpty())
        return tr("The source needs an id.");
    if (id.size() > DashboardLimits::MaximumIdLength)
        return tr("The id is longer than %1 characters.").arg(DashboardLimits::MaximumIdLength);
    if (m_otherIds.contains(id))
        return tr("Another source is called \"%1\".").arg(id);
    if (m_url && m_url->text().trimmed().isEmpty())
        return tr("The exporter needs a metrics URL.");
    return {};
}

void SourceEditor::updateProblem()
{
    const QString text = problem();
    m_problem->setText(text);
    m_problem->setVisible(!text.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(text.isEmpty());
    m_test->setEnabled(text.isEmpty() && !isTesting());
}

void SourceEditor::testConnection()
{
    if (isTesting() || !problem().isEmpty() || !m_tester)
        return;
    m_test->setEnabled(false);
    m_result->setText(tr("Testing…"));
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_watcher.setFuture(
        QtConcurrent::run(m_tester, source(), std::shared_ptr<const std::atomic<bool>>(m_cancel)));
}

bool SourceEditor::isTesting() const
{
    return m_watcher.isRunning();
}

QString SourceEditor::testResult() const
{
    return m_result->text();
}

} // namespace Headroom
