import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.ConnectorPortRegister;
import org.neo4j.configuration.connectors.ConnectorType;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.kernel.internal.GraphDatabaseAPI;

/**
 * Neo4j Community in this JVM with only its Bolt connector, on 127.0.0.1 and a port the
 * operating system picks (no race with other servers for a "free" port). Once Bolt listens it
 * writes "bolt://127.0.0.1:PORT" to the ready file (atomically) and runs until it is stopped
 * (SIGTERM: the shutdown hook closes the databases cleanly).
 *
 * <p>Usage: java Neo4jLocal HOME READY_FILE [PAGECACHE_MB]
 */
public final class Neo4jLocal {
    private Neo4jLocal() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        Path home = Path.of(args[0]);
        Path ready = Path.of(args[1]);
        long pagecache = args.length > 2 ? Long.parseLong(args[2]) : 64;
        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", 0))
                .setConfig(HttpConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, false)
                .setConfig(GraphDatabaseSettings.pagecache_memory, pagecache * 1024 * 1024)
                // transaction timeouts are checked every 2 s by default: a 1 s timeout would
                // stop the query up to 3 s late
                .setConfig(GraphDatabaseSettings.transaction_monitor_check_interval,
                        Duration.ofMillis(100))
                .build();
        Runtime.getRuntime().addShutdownHook(new Thread(dbms::shutdown, "neo4j-local-stop"));
        GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
        int port = ((GraphDatabaseAPI) db).getDependencyResolver()
                .resolveDependency(ConnectorPortRegister.class)
                .getLocalAddress(ConnectorType.BOLT)
                .getPort();
        Path partial = ready.resolveSibling(ready.getFileName() + ".part");
        Files.writeString(partial, "bolt://127.0.0.1:" + port + "\n", StandardCharsets.UTF_8);
        Files.move(partial, ready, StandardCopyOption.ATOMIC_MOVE);
        Thread.currentThread().join();
    }
}
