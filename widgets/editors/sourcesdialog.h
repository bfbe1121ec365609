// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Dashboard ▸ Sources…: the dashboard's sources with what they point at and their
// status; add a host, network interfaces, a PostgreSQL server or a Prometheus exporter,
// edit or remove one (SourceEditor). A renamed source takes its panels, derived series
// and rules along; OK is refused, with the reason, while the dashboard would not load
// back (a removed source a panel still reads). The window applies the result live and
// saves it with the dashboard.
#pragma once

#include "editors/sourceeditor.h"

#include <QDialog>
#include <functional>

class QTableWidget;
class QPushButton;

namespace Headroom {

class SourcesDialog : public QDialog
{
    Q_OBJECT
public:
    // A source's status line now ("ok", "error: ..."), by id; empty when unknown.
    using StatusOf = std::function<QString(const QString &sourceId)>;

    SourcesDialog(const Dashboard &dashboard, StatusOf status, SourceEditor::Tester tester,
                  QWidget *parent = nullptr);

    // The dashboard with the sources as edited (and references to renamed ones).
    const Dashboard &dashboard() const { return m_dashboard; }
    const QList<DashboardSource> &sources() const { return m_dashboard.sources; }
    // Why OK is refused now (dashboardProblem), empty when it is not.
    QString problem() const;
    void accept() override;

    // What a new source of this plugin starts as (an id not yet used): host, nic,
    // postgres, prometheus.
    DashboardSource newSource(const QString &plugin) const;
    // Adds or edits through `edit`, which gets the editor to fill in and returns
    // whether it was accepted; without one the editor is shown modally. For tests.
    using EditorRun = std::function<bool(SourceEditor *)>;
    void setEditorRun(EditorRun run) { m_editorRun = std::move(run); }
    void addSource(const QString &plugin);
    void editSource(int row);
    void removeSource(int row);
    QTableWidget *table() const { return m_table; }

    // What the Target column shows: the host, the connection string without password,
    // the URL.
    static QString targetOf(const DashboardSource &source);

private:
    void refill();
    bool runEditor(SourceEditor *editor);
    QStringList idsExcept(int row) const;

    Dashboard m_dashboard;
    StatusOf m_status;
    SourceEditor::Tester m_tester;
    EditorRun m_editorRun;
    QTableWidget *m_table;
    QPushButton *m_edit;
    QPushButton *m_remove;
};

} // namespace Headroom
