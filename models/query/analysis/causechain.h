// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The cause before its symptoms: findings whose onsets fall within a few polls of each
// other are linked when one of them is a more specific explanation of the other, by
// one small table of families (CauseRules):
//   a root blocker (causefindings.h)  explains  statements, the server, its databases
//   a statement whose plan changed    explains  the server, its database
//   a process (causefindings.h)       explains  its host's CPU
//   a NIC                             explains  its source's TCP and network stack
// where a statement's plan changed when its finding holds a figure per call (blocks,
// rows, time; pg.statements.*_per_call, .mean_time_ms, the per-call changes), "the
// server" is a finding of resource "pg" or "mariadb" (waits, sessions, wait shares),
// "its databases" one of "db:<name>" (of the statement's own database for a statement),
// and both findings are of the same source. The earlier rules win: a statement held up
// by a root blocker is the blocker's consequence and leads nothing itself.
// Linked when the onsets (sinceMs) are at most ChainPolls bins apart, either way round
// (a wait may show a poll before the statement's figures do), or when the symptom's
// signal is already evidence of the cause (a shelf's witness, findings.h: from 15 bins
// before the shelf to 5 after it).
// The lead carries the chain: its score is the best of the chain's, its kind that of its
// best raised consequence when it is a change itself, its evidence gains theirs, and
// its summary ends with them ("; explains #2 PostgreSQL server (critical), #3 ...");
// each consequence says "; a consequence of #1". In the ranking the chain takes the place
// of its best member, the lead first, its consequences right after it in their own order.
#pragma once

#include "query/analysis/findings.h"

#include <span>
#include <vector>

namespace Headroom::Analysis {

enum class CauseFamily
{
    Other,
    RootBlocker,
    Statement,
    Process,
    Nic,
    Server,
    Database,
    Network, // TCP and the network stack ("tcp", "net")
    Cpu
};

inline constexpr int ChainPolls = 3;

CauseFamily causeFamilyOf(const Finding &finding);
// Whether a finding of family `cause` may explain one of family `symptom` (the table).
bool explains(CauseFamily cause, CauseFamily symptom);

// For each finding, the index of the one that explains it, -1 for none. binMs: the
// analysis' bin width.
std::vector<int> linkCauses(std::span<const Finding> findings, qint64 binMs,
                            int polls = ChainPolls);

// The leads take on their chains' score, kind, span and evidence (see above).
void promoteLeads(std::vector<Finding> *findings, std::span<const int> causeOf);

// `ranked` (indices into findings, best first) with every chain at the place of its best
// member: the lead, then its consequences. The findings of the result are moved out of
// `findings`, at most maxFindings of them, ranked from 1, with causedBy, consequences
// and the notes in their summaries set.
std::vector<Finding> chainRanked(std::vector<Finding> findings, std::span<const int> causeOf,
                                 std::span<const size_t> ranked, int maxFindings);

} // namespace Headroom::Analysis
