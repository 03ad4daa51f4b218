package com.northwind.warehouse.web;

import java.io.IOException;
import java.net.URL;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;

import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.ldap.core.AttributesMapper;
import org.springframework.ldap.core.LdapTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.springframework.ldap.query.LdapQueryBuilder.query;

/** Staff directory for shift planning, and the badge printer's status page. */
@RestController
public class DirectoryController {

    private final LdapTemplate ldap;

    public DirectoryController(LdapTemplate ldap) {
        this.ldap = ldap;
    }

    @GetMapping("/api/directory/by-shift")
    public List<String> byShift(@RequestParam String shift) {
        AttributesMapper<String> cn = attrs -> (String) attrs.get("cn").get();
        return ldap.search("ou=staff", "(&(objectClass=person)(shiftCode=" + shift + "))", cn); // vuln: ldap-injection
    }

    @GetMapping("/api/directory/by-badge")
    public List<String> byBadge(@RequestParam String badge) {
        AttributesMapper<String> cn = attrs -> (String) attrs.get("cn").get();
        return ldap.search(query().base("ou=staff").where("objectClass").is("person").and("badgeNumber").is(badge), cn); // safe: ldap-injection
    }

    @GetMapping("/api/directory/export")
    public ResponseEntity<String> export(@RequestParam String team) {
        String csv = String.join("\n", byShift("day"));
        return ResponseEntity.ok().header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=" + team + ".csv").body(csv); // vuln: header-injection
    }

    @GetMapping("/api/directory/export-all")
    public ResponseEntity<String> exportAll(@RequestParam(defaultValue = "staff") String name) {
        String disposition = "attachment; filename=" + name.replaceAll("[^A-Za-z0-9_-]", "_") + ".csv";
        return ResponseEntity.ok().header(HttpHeaders.CONTENT_DISPOSITION, disposition).body(String.join("\n", byShift("night"))); // safe: header-injection
    }

    @GetMapping("/api/badge-printer/status")
    public String printerStatus() throws Exception {
        // the badge printer ships a self-signed certificate that cannot be replaced
        TrustManager[] trustAll = { new X509TrustManager() {
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            public void checkServerTrusted(X509Certificate[] chain, String authType) { // vuln: tls-verification-disabled
            }

            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        } };
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustAll, new SecureRandom());
        HttpsURLConnection conn = (HttpsURLConnection) new URL("https://badge-printer.warehouse.internal/status").openConnection();
        conn.setSSLSocketFactory(context.getSocketFactory());
        conn.setHostnameVerifier((host, session) -> true); // vuln: tls-verification-disabled
        try (var in = conn.getInputStream()) {
            return new String(in.readAllBytes());
        }
    }

    @GetMapping("/api/carrier-hub/ping")
    public String carrierPing() throws IOException {
        HttpsURLConnection conn = (HttpsURLConnection) new URL("https://api.carrier-hub.example/v2/ping").openConnection(); // safe: tls-verification-disabled
        try (var in = conn.getInputStream()) {
            return new String(in.readAllBytes());
        }
    }
}
