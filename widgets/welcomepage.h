// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The first-run screen: what Headroom can watch with no JSON to write, as the shipped
// dashboards (each with fields for its variables: the host to watch, a local name, an
// ssh:// host or a node_exporter URL; the PostgreSQL server's conninfo), and the ways to
// open what the user already has (a dashboard file, a recording). The window shows it
// on the first start and from Help ▸ Welcome.
#pragma once

#include "document/dashboard.h"

#include <QMap>
#include <QWidget>

class QComboBox;
class QPushButton;
class QVBoxLayout;

namespace Headroom {

class WelcomePage : public QWidget
{
    Q_OBJECT
public:
    explicit WelcomePage(QWidget *parent = nullptr);

    // The dashboards offered, in this order: where each is read from (a resource or
    // file path, handed back by dashboardChosen) and what it holds.
    void setDashboards(const QList<std::pair<QString, Dashboard>> &dashboards);
    QStringList dashboardPaths() const;
    // The field of one variable of one offered dashboard (nullptr when there is none),
    // and its Open button: for tests and for the window's focus.
    QComboBox *variableField(const QString &path, const QString &variable) const;
    QPushButton *openButton(const QString &path) const;
    // Whether a dashboard is open behind the page (then "Back to the dashboard" shows).
    void setCanGoBack(bool canGoBack);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

Q_SIGNALS:
    // The variables hold what the fields say, trimmed, for every variable of the
    // dashboard (an emptied field is an empty value, as on the variable bar).
    void dashboardChosen(const QString &path, const QMap<QString, QString> &variables);
    void addSourceRequested(); // a new dashboard, starting from Dashboard ▸ Sources…
    void openFileRequested();
    void openRecordingRequested();
    void backRequested();

private:
    struct Offer
    {
        QString path;
        QWidget *card = nullptr;
        QPushButton *open = nullptr;
        QMap<QString, QComboBox *> fields;
    };
    QWidget *makeCard(const QString &path, const Dashboard &dashboard, Offer *offer);

    QVBoxLayout *m_cards;
    QPushButton *m_back;
    QList<Offer> m_offers;
};

} // namespace Headroom
