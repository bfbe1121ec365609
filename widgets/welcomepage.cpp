// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "welcomepage.h"

#include <QComboBox>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
constexpr int ColumnWidthPx = 760; // one readable column, centred in a wide window

// "host (every 1 s), nic (every 1 s)": what opening the dashboard starts polling.
QString sourcesLine(const Dashboard &dashboard)
{
    QStringList parts;
    for (const DashboardSource &source : dashboard.sources) {
        const double seconds = source.intervalMs / 1000.0;
        parts.append(WelcomePage::tr("%1 (every %2 s)").arg(source.plugin).arg(seconds));
    }
    return WelcomePage::tr("Collects: %1").arg(parts.join(u", "_s));
}
} // namespace

WelcomePage::WelcomePage(QWidget *parent)
    : QWidget(parent)
{
    auto *column = new QWidget;
    column->setMaximumWidth(ColumnWidthPx);
    auto *layout = new QVBoxLayout(column);
    auto *heading = new QLabel(tr("Welcome to Headroom"));
    QFont big = heading->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    heading->setFont(big);
    layout->addWidget(heading);
    auto *intro = new QLabel(
        tr("Pick what to watch. A dashboard starts collecting when it opens, into the local "
           "cache only; passwords come from ~/.pgpass, the environment or your SSH agent "
           "and are never saved. A host is local, ssh://user@server[:port] or a "
           "node_exporter URL (http://server:9100/metrics). Every choice can be changed later "
           "on the variable bar."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_cards = new QVBoxLayout;
    m_cards->setSpacing(12);
    layout->addLayout(m_cards);

    auto *buttons = new QHBoxLayout;
    auto *addSource = new QPushButton(tr("Add a Source…"));
    addSource->setObjectName(u"addSource"_s);
    addSource->setToolTip(tr("A new dashboard of your own hosts, databases and exporters: "
                             "a USE matrix of them all and the alert list"));
    connect(addSource, &QPushButton::clicked, this, &WelcomePage::addSourceRequested);
    auto *openFile = new QPushButton(tr("Open a Dashboard File…"));
    openFile->setObjectName(u"openFile"_s);
    connect(openFile, &QPushButton::clicked, this, &WelcomePage::openFileRequested);
    auto *openRecording = new QPushButton(tr("Open a Recording…"));
    openRecording->setObjectName(u"openRecording"_s);
    connect(openRecording, &QPushButton::clicked, this, &WelcomePage::openRecordingRequested);
    m_back = new QPushButton(tr("Back to the Dashboard"));
    m_back->setObjectName(u"back"_s);
    m_back->hide();
    connect(m_back, &QPushButton::clicked, this, &WelcomePage::backRequested);
    buttons->addWidget(addSource);
    buttons->addWidget(openFile);
    buttons->addWidget(openRecording);
    buttons->addStretch(1);
    buttons->addWidget(m_back);
    layout->addLayout(buttons);
    layout->addStretch(1);

    // The column in the middle of the page, scrolled when the window is short.
    auto *centred = new QWidget;
    auto *row = new QHBoxLayout(centred);
    row->addStretch(1);
    row->addWidget(column, 100);
    row->addStretch(1);
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(centred);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
}

void WelcomePage::setDashboards(const QList<std::pair<QString, Dashboard>> &dashboards)
{
    for (const Offer &offer : std::as_const(m_offers))
        delete offer.card;
    m_offers.clear();
    for (const auto &[path, dashboard] : dashboards) {
        Offer offer;
        offer.path = path;
        offer.card = makeCard(path, dashboard, &offer);
        m_cards->addWidget(offer.card);
        m_offers.append(offer);
    }
}

QWidget *WelcomePage::makeCard(const QString &path, const Dashboard &dashboard, Offer *offer)
{
    auto *card = new QFrame;
    card->setFrameShape(QFrame::StyledPanel);
    auto *layout = new QVBoxLayout(card);
    auto *title = new QLabel(dashboard.title.isEmpty() ? path : dashboard.title);
    title->setTextFormat(Qt::PlainText); // a title is untrusted text
    QFont bold = title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    title->setFont(bold);
    layout->addWidget(title);
    auto *sources = new QLabel(sourcesLine(dashboard));
    sources->setTextFormat(Qt::PlainText);
    sources->setWordWrap(true);
    layout->addWidget(sources);
    auto *form = new QFormLayout;
    for (const DashboardVariable &variable : dashboard.variables) {
        auto *field = new QComboBox;
        field->setEditable(true);
        field->addItems(variable.options);
        field->setCurrentText(variable.defaultValue);
        field->setObjectName(u"variable:"_s + variable.name);
        field->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        auto *label = new QLabel(variable.label.isEmpty() ? variable.name : variable.label);
        label->setTextFormat(Qt::PlainText);
        label->setWordWrap(true);
        label->setBuddy(field);
        form->addRow(label, field);
        offer->fields.insert(variable.name, field);
    }
    layout->addLayout(form);
    offer->open = new QPushButton(tr("Open"));
    offer->open->setObjectName(u"open"_s);
    auto *buttonRow = new QHBoxLayout;
    buttonRow->addStretch(1);
    buttonRow->addWidget(offer->open);
    layout->addLayout(buttonRow);
    const QMap<QString, QComboBox *> fields = offer->fields;
    connect(offer->open, &QPushButton::clicked, this, [this, path, fields] {
        QMap<QString, QString> values;
        for (auto it = fields.cbegin(); it != fields.cend(); ++it)
            values.insert(it.key(), it.value()->currentText().trimmed());
        Q_EMIT dashboardChosen(path, values);
    });
    // Enter in a field opens, as the card's default action: the key, ignored by the
    // field, reaches the card (returnPressed comes twice from an editable combo box).
    card->installEventFilter(this);
    return card;
}

bool WelcomePage::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            for (const Offer &offer : std::as_const(m_offers)) {
                if (offer.card == watched) {
                    offer.open->click();
                    return true;
                }
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

QStringList WelcomePage::dashboardPaths() const
{
    QStringList paths;
    for (const Offer &offer : m_offers)
        paths.append(offer.path);
    return paths;
}

QComboBox *WelcomePage::variableField(const QString &path, const QString &variable) const
{
    for (const Offer &offer : m_offers) {
        if (offer.path == path)
            return offer.fields.value(variable);
    }
    return nullptr;
}

QPushButton *WelcomePage::openButton(const QString &path) const
{
    for (const Offer &offer : m_offers) {
        if (offer.path == path)
            return offer.open;
    }
    return nullptr;
}

void WelcomePage::setCanGoBack(bool canGoBack)
{
    m_back->setVisible(canGoBack);
}

} // namespace Headroom
