// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// One dashboard source as a form for its kind: a host (local, ssh:// or a node_exporter
// URL), network interfaces, a PostgreSQL server (host, port, database, user, SSL mode,
// written into its connection string; never a password), a Prometheus exporter. The
// options a form does not show (shard sets, probes, custom queries) are kept as they
// are. "Test connection" runs the real collector a few times off the GUI thread and
// shows what it would collect and what it warns about.
#pragma once

#include "document/dashboard.h"
#include "engine/sourceprobe.h"

#include <QDialog>
#include <QFutureWatcher>
#include <atomic>
#include <functional>
#include <memory>

class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace Headroom {

class SourceEditor : public QDialog
{
    Q_OBJECT
public:
    // Runs on a worker thread: the probe of a source as the dashboard would run it,
    // stopping when *cancel turns true (the editor closed). It must not refer to the
    // editor: a test still running when the editor closes is left to end by itself.
    using Tester = std::function<SourceProbeResult(
        const DashboardSource &, std::shared_ptr<const std::atomic<bool>> cancel)>;

    // otherIds: the ids of the dashboard's other sources (an id must be unique).
    SourceEditor(const DashboardSource &source, const QStringList &otherIds, Tester tester,
                 QWidget *parent = nullptr);
    ~SourceEditor() override; // cancels a test in flight, without waiting for it

    // The source as the fields say.
    DashboardSource source() const;
    // Why OK is off (empty id, an id in use...); empty when the source may be kept.
    QString problem() const;
    // Starts a test of source(); its words go to testResult() when it ends.
    void testConnection();
    bool isTesting() const;
    QString testResult() const;

    // "host=db1 port=5433 dbname=orders user=monitor sslmode=require": the fields'
    // connection string (values quoted as libpq wants where needed), empty ones left out.
    static QString conninfoFromFields(const QString &host, const QString &port,
                                      const QString &dbname, const QString &user,
                                      const QString &sslmode);

Q_SIGNALS:
    void tested();

private:
    void addPostgresFields(QFormLayout *form);
    void updateConninfo(); // from the PostgreSQL fields
    void updateProblem();

    DashboardSource m_original;
    QStringList m_otherIds;
    Tester m_tester;
    QLineEdit *m_id;
    QSpinBox *m_interval;
    QLineEdit *m_host = nullptr; // host, nic
    QLineEdit *m_interfaces = nullptr; // nic
    QLineEdit *m_url = nullptr; // prometheus
    QLineEdit *m_conninfo = nullptr; // postgres
    QLineEdit *m_pgHost = nullptr, *m_pgPort = nullptr, *m_pgDatabase = nullptr,
              *m_pgUser = nullptr;
    QComboBox *m_pgSslMode = nullptr;
    QLabel *m_problem;
    QLabel *m_result;
    QPushButton *m_test;
    QDialogButtonBox *m_buttons;
    QFutureWatcher<SourceProbeResult> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace Headroom
