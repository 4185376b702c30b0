internal import CCurl
internal import CurlShims

/// The engine thread's state: the multi handle, the transfers in it and the queue waiting for a slot.
///
/// Not `Sendable` and never shared: only `CurlEngine`'s thread calls into it, which is what makes its raw handle
/// use safe.
final class TransferLoop {
    private let multi: UnsafeMutableRawPointer
    private let maxActive: Int
    private let descriptorReserve: Int
    /// Transfers in the multi handle, keyed by ticket id; holding them here keeps each `Transfer` (and the
    /// unretained pointer its callbacks receive) alive exactly as long as its easy handle is in the multi handle.
    private var active: [UInt64: Transfer] = [:]
    /// Tickets waiting for a free slot, oldest first, from `queueHead` on.
    private var queue: [TransferTicket] = []
    private var queueHead = 0
    private let trustStore = TrustStore()
    private var cleanedUp = false

    init(multi: UnsafeMutableRawPointer, configuration: CurlEngine.Configuration) {
        self.multi = multi
        self.maxActive = configuration.maxConcurrentTransfers
        self.descriptorReserve = configuration.descriptorReserve
        // HTTP/2 multiplexing is libcurl's default since 7.62; set it anyway so the behaviour is ours.
        _ = aasa_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = aasa_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, configuration.maxIdleConnections)
        _ = aasa_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
    }

    /// Runs until a drained batch asks for shutdown, then cleans up every handle.
    func run(drain: () -> Inbox.Batch) {
        while true {
            let batch = drain()
            for ticket in batch.submissions { enqueue(ticket) }
            for id in batch.cancellations { cancel(id) }
            if batch.shutdown { break }
            startQueued()
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            let finishedAny = collectFinished()
            if finishedAny && hasQueued && active.count < maxActive { continue }
            _ = curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        failEverything()
        cleanUp()
    }

    /// Releases the multi handle and libcurl's global state; idempotent.
    func cleanUp() {
        guard !cleanedUp else { return }
        cleanedUp = true
        curl_multi_cleanup(multi)
        trustStore.removeFiles()
        aasa_curl_global_cleanup()
    }

    private var hasQueued: Bool { queueHead < queue.count }

    private func enqueue(_ ticket: TransferTicket) {
        queue.append(ticket)
    }

    private func startQueued() {
        while active.count < maxActive, hasQueued {
            let ticket = queue[queueHead]
            queueHead += 1
            guard !ticket.isFinished else { continue }
            start(ticket: ticket, purpose: .fetch)
        }
        if queueHead > 256 && queueHead * 2 > queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
    }

    private func start(ticket: TransferTicket, purpose: Transfer.Purpose) {
        // A caller that cancelled has its answer already; do not start (or describe) anything for it.
        guard !ticket.isFinished else { return }
        do {
            let caFile = try trustStore.caFile(for: ticket.request.trust, url: ticket.request.url)
            let transfer = try Transfer(
                ticket: ticket, purpose: purpose, caFile: caFile, descriptorReserve: descriptorReserve)
            let code = curl_multi_add_handle(multi, transfer.easy)
            guard code == CURLM_OK else {
                let text = String(cString: curl_multi_strerror(code))
                throw HTTPEngineError(code: .invalidRequest, url: ticket.request.url, message: text)
            }
            active[ticket.id] = transfer
        } catch {
            if case .describe(let failure, _) = purpose {
                ticket.finish(.failure(failure))
            } else {
                ticket.finish(.failure(error))
            }
        }
    }

    /// Drains `curl_multi_info_read`; returns whether any transfer finished.
    private func collectFinished() -> Bool {
        var finishedAny = false
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            var privatePointer: UnsafeMutableRawPointer?
            _ = aasa_curl_easy_getinfo_ptr(easy, CURLINFO_PRIVATE, &privatePointer)
            curl_multi_remove_handle(multi, easy)
            finishedAny = true
            guard let privatePointer else { continue }
            let transfer = Unmanaged<Transfer>.fromOpaque(privatePointer).takeUnretainedValue()
            active.removeValue(forKey: transfer.ticket.id)
            complete(transfer, code: code)
        }
        return finishedAny
    }

    private func complete(_ transfer: Transfer, code: CURLcode) {
        let outcome = transfer.outcome(code: code)
        switch (transfer.purpose, outcome) {
        case (.fetch, .response(let response)):
            transfer.ticket.finish(.success(response))
        case (.fetch, .failure(let failure)):
            // A rejected certificate is described by a second, non-verifying handshake. Only a wrong host name is
            // found after libcurl records CERTINFO, so when the fetch itself used CERTINFO (a TLS library other than
            // OpenSSL) its leaf is already here and the second handshake is skipped.
            let request = transfer.ticket.request
            let remaining = request.timeout - (ContinuousClock.now - transfer.startedAt)
            if request.describesRejectedCertificate, failure.certificate == nil,
                [.tlsExpired, .tlsUntrusted, .tlsHostname].contains(failure.kind), remaining >= .milliseconds(1)
            {
                start(ticket: transfer.ticket, purpose: .describe(failure, remaining: remaining))
            } else {
                transfer.ticket.finish(.failure(failure))
            }
        case (.describe(var failure, _), _):
            failure.certificate = transfer.certinfoLeaf()
            transfer.ticket.finish(.failure(failure))
        }
    }

    /// Removes a cancelled transfer. Its caller was already answered (`TransferTicket.requestCancellation`); a
    /// ticket still queued, or submitted after its cancellation, is finished and so skipped by `startQueued`.
    private func cancel(_ id: UInt64) {
        guard let transfer = active.removeValue(forKey: id) else { return }
        // Removing the handle mid-transfer closes its connection (HTTP/1.1) or resets its stream (HTTP/2).
        curl_multi_remove_handle(multi, transfer.easy)
    }

    private func failEverything() {
        for transfer in active.values {
            curl_multi_remove_handle(multi, transfer.easy)
            transfer.ticket.finish(.failure(HTTPEngineError.engineShutDown(url: transfer.ticket.request.url)))
        }
        active.removeAll()
        for ticket in queue[queueHead...] {
            ticket.finish(.failure(HTTPEngineError.engineShutDown(url: ticket.request.url)))
        }
        queue.removeAll()
        queueHead = 0
    }
}
