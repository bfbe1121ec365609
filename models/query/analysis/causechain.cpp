// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/analysis/causechain.h"

#include <QHash>
#include <algorithm>
#include <array>
#include <cstdlib>

using namespace Qt::StringLiterals;

namespace Headroom::Analysis {

namespace {

struct CauseRule
{
    CauseFamily cause;
    std::array<CauseFamily, 3> symptoms; // Other: none
};

// The most specific cause first: a family listed as a symptom of an earlier rule is
// taken by that rule before it may lead in its own.
constexpr std::array<CauseRule, 4> CauseRules { {
    { CauseFamily::RootBlocker,
      { CauseFamily::Statement, CauseFamily::Server, CauseFamily::Database } },
    { CauseFamily::Statement, { CauseFamily::Server, CauseFamily::Database, CauseFamily::Other } },
    { CauseFamily::Process, { CauseFamily::Cpu, CauseFamily::Other, CauseFamily::Other } },
    { CauseFamily::Nic, { CauseFamily::Network, CauseFamily::Other, CauseFamily::Other } },
} };

// A statement's figures per call: what changes with its plan.
bool hasPerCallFigure(const Finding &f)
{
    for (const SeriesKey &key : f.evidenceKeys) {
        const QString &m = key.metric;
        if (m.endsWith(".mean_time_ms"_L1) || m.endsWith(".blocks_per_call"_L1)
            || m.endsWith(".rows_per_call"_L1) || m.endsWith(".blocks_per_call_change"_L1)
            || m.endsWith(".time_per_call_change"_L1)
            || m.endsWith(".rows_examined_per_row_sent"_L1))
            return true;
    }
    return false;
}

// Whether `f` may lead as a finding of `family`: a statement only when its plan changed.
bool mayLead(const Finding &f, CauseFamily family)
{
    return family != CauseFamily::Statement || hasPerCallFigure(f);
}

// A statement explains its own database's figures, not another's.
bool sameScope(const Finding &cause, CauseFamily causeFamily, const Finding &symptom,
               CauseFamily symptomFamily)
{
    if (cause.source != symptom.source)
        return false;
    if (causeFamily == CauseFamily::Statement && symptomFamily == CauseFamily::Database)
        return cause.resourceId == symptom.resourceId;
    return true;
}

QString levelNote(const Finding &f)
{
    return f.score >= CriticalScore ? u" (critical)"_s
        : f.score >= WarningScore   ? u" (warning)"_s
                                    : QString();
}

} // namespace

CauseFamily causeFamilyOf(const Finding &f)
{
    if (f.evidenceKeys.isEmpty())
        return CauseFamily::Other;
    const SeriesKey &signal = f.evidenceKeys.front();
    if (signal.metric.endsWith(".locks.root_blocked"_L1))
        return CauseFamily::RootBlocker;
    if (f.resourceId == "process"_L1)
        return CauseFamily::Process;
    if (signal.labels.contains(u"queryid"_s))
        return CauseFamily::Statement;
    const QString &r = f.resourceId;
    if (r == "nic"_L1 || r.startsWith("nic:"_L1))
        return CauseFamily::Nic;
    if (r == "tcp"_L1 || r == "net"_L1)
        return CauseFamily::Network;
    if (r == "pg"_L1 || r == "mariadb"_L1)
        return CauseFamily::Server;
    if (r.startsWith("db:"_L1))
        return CauseFamily::Database;
    if (r == "cpu"_L1)
        return CauseFamily::Cpu;
    return CauseFamily::Other;
}

bool explains(CauseFamily cause, CauseFamily symptom)
{
    if (symptom == CauseFamily::Other)
        return false;
    for (const CauseRule &rule : CauseRules)
        if (rule.cause == cause)
            return std::find(rule.symptoms.begin(), rule.symptoms.end(), symptom)
                != rule.symptoms.end();
    return false;
}

std::vector<int> linkCauses(std::span<const Finding> findings, qint64 binMs, int polls)
{
    const size_t n = findings.size();
    std::vector<int> causeOf(n, -1);
    std::vector<bool> leads(n, false);
    std::vector<CauseFamily> family(n);
    for (size_t i = 0; i < n; ++i)
        family[i] = causeFamilyOf(findings[i]);
    const qint64 near = qint64(polls) * std::max<qint64>(binMs, 1);
    for (const CauseRule &rule : CauseRules) {
        for (size_t s = 0; s < n; ++s) {
            if (causeOf[s] >= 0 || leads[s] || !explains(rule.cause, family[s]))
                continue;
            int best = -1;
            qint64 bestGap = 0;
            for (size_t c = 0; c < n; ++c) {
                if (c == s || family[c] != rule.cause || causeOf[c] >= 0
                    || !mayLead(findings[c], family[c])
                    || !sameScope(findings[c], family[c], findings[s], family[s]))
                    continue;
                // Near in time, or the symptom's signal already witnesses the cause (a
                // NIC's shelf names the retransmits that rose as it was reached).
                const qint64 gap = std::abs(findings[c].sinceMs - findings[s].sinceMs);
                if (gap > near
                    && !findings[c].evidenceSeriesIds.contains(findings[s].signalSeriesId))
                    continue;
                if (best < 0 || gap < bestGap
                    || (gap == bestGap && findings[c].score > findings[size_t(best)].score)) {
                    best = int(c);
                    bestGap = gap;
                }
            }
            if (best >= 0) {
                causeOf[s] = best;
                leads[size_t(best)] = true;
            }
        }
    }
    return causeOf;
}

void promoteLeads(std::vector<Finding> *findings, std::span<const int> causeOf)
{
    std::vector<Finding> &all = *findings;
    for (size_t s = 0; s < all.size(); ++s) {
        if (causeOf[s] < 0)
            continue;
        Finding &lead = all[size_t(causeOf[s])];
        const Finding &symptom = all[s];
        if (symptom.score > lead.score)
            lead.score = symptom.score;
        if (symptom.kind != FindingKind::Change
            && findingKindTier(symptom.kind) < findingKindTier(lead.kind)
            && (lead.kind == FindingKind::Change || lead.score <= symptom.score))
            lead.kind = symptom.kind;
        lead.untilMs = std::max(lead.untilMs, symptom.untilMs);
        for (qsizetype e = 0; e < symptom.evidenceSeriesIds.size(); ++e) {
            if (!lead.evidenceSeriesIds.contains(symptom.evidenceSeriesIds[e])) {
                lead.evidenceSeriesIds.append(symptom.evidenceSeriesIds[e]);
                lead.evidenceKeys.append(symptom.evidenceKeys[e]);
            }
        }
    }
}

std::vector<Finding> chainRanked(std::vector<Finding> findings, std::span<const int> causeOf,
                                 std::span<const size_t> ranked, int maxFindings)
{
    const size_t n = findings.size();
    QHash<int, std::vector<size_t>> consequencesOf; // in `ranked` order
    for (size_t i : ranked)
        if (causeOf[i] >= 0)
            consequencesOf[causeOf[i]].push_back(i);
    std::vector<size_t> order;
    std::vector<bool> placed(n, false);
    for (size_t i : ranked) {
        const size_t lead = causeOf[i] >= 0 ? size_t(causeOf[i]) : i;
        if (placed[lead])
            continue;
        placed[lead] = true;
        order.push_back(lead);
        for (size_t c : consequencesOf.value(int(lead))) {
            placed[c] = true;
            order.push_back(c);
        }
    }
    if (int(order.size()) > maxFindings)
        order.resize(size_t(std::max(0, maxFindings)));
    std::vector<int> rankOf(n, 0);
    for (size_t r = 0; r < order.size(); ++r)
        rankOf[order[r]] = int(r) + 1;
    std::vector<Finding> out;
    out.reserve(order.size());
    for (size_t i : order) {
        Finding f = std::move(findings[i]);
        f.rank = rankOf[i];
        f.causedBy = causeOf[i] >= 0 ? rankOf[size_t(causeOf[i])] : 0;
        QStringList explained;
        for (size_t c : consequencesOf.value(int(i))) {
            if (rankOf[c] == 0)
                continue; // cut by maxFindings
            f.consequences.append(rankOf[c]);
            explained << u"#%1 %2%3"_s.arg(QString::number(rankOf[c]), findings[c].resource,
                                           levelNote(findings[c]));
        }
        if (!explained.isEmpty())
            f.summary += u"; explains "_s + explained.join(u", "_s);
        if (f.causedBy > 0)
            f.summary += u"; a consequence of #%1"_s.arg(f.causedBy);
        out.push_back(std::move(f));
    }
    return out;
}

} // namespace Headroom::Analysis
