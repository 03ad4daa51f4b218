package com.northwind.warehouse.web;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.util.UriComponentsBuilder;

/** Shipments: carrier labels, tracking redirects, partner webhooks, bulk label upload. */
@Controller
public class ShipmentController {

    private static final Path LABEL_DIR = Paths.get("/srv/warehouse/labels");
    private static final Map<String, String> CARRIERS = Map.of(
            "dhl", "https://www.dhl.com/track?id=",
            "ups", "https://www.ups.com/track?tracknum=");

    private final RestTemplate rest = new RestTemplate();

    @GetMapping("/shipments/{id}/label")
    public ResponseEntity<Resource> label(@PathVariable long id, @RequestParam String file) {
        Resource pdf = new FileSystemResource(LABEL_DIR.resolve(Long.toString(id)).resolve(file)); // vuln: path-traversal
        return ResponseEntity.ok().header(HttpHeaders.CONTENT_TYPE, "application/pdf").body(pdf);
    }

    @GetMapping("/shipments/{id}/manifest")
    public ResponseEntity<Resource> manifest(@PathVariable long id) {
        Resource pdf = new FileSystemResource(LABEL_DIR.resolve(id + "/manifest.pdf")); // safe: path-traversal
        return ResponseEntity.ok().body(pdf);
    }

    @GetMapping("/track")
    public String track(@RequestParam String carrier, @RequestParam String number) {
        String base = CARRIERS.get(carrier);
        if (base == null) {
            return "redirect:/shipments?unknownCarrier";
        }
        return "redirect:" + base + UriComponentsBuilder.newInstance().path(number).build().encode().toUriString(); // safe: open-redirect
    }

    @GetMapping("/continue")
    public String continueTo(@RequestParam("to") String to) {
        return "redirect:" + to; // vuln: open-redirect
    }

    @PostMapping("/shipments/{id}/notify")
    @ResponseBody
    public String notifyPartner(@PathVariable long id, @RequestParam String callback) {
        // partners register their callback URL on the shipment form
        return rest.postForObject(callback, Map.of("shipment", id, "status", "dispatched"), String.class); // vuln: ssrf
    }

    @GetMapping("/shipments/{id}/carrier-status")
    @ResponseBody
    public String carrierStatus(@PathVariable long id, @RequestParam String carrier) {
        URI uri = UriComponentsBuilder.fromHttpUrl("https://api.carrier-hub.example/v2/status")
                .queryParam("carrier", carrier)
                .queryParam("shipment", id)
                .build().toUri();
        return rest.getForObject(uri, String.class); // safe: ssrf
    }

    @PostMapping("/shipments/labels/bulk")
    @ResponseBody
    public String bulkUpload(@RequestParam("archive") MultipartFile archive) throws IOException {
        int count = 0;
        try (ZipInputStream zip = new ZipInputStream(archive.getInputStream())) {
            ZipEntry entry;
            while ((entry = zip.getNextEntry()) != null) {
                Path target = LABEL_DIR.resolve("incoming").resolve(entry.getName()); // vuln: path-traversal [zip-slip]
                Files.copy(zip, target); // vuln: path-traversal [zip-slip]
                count++;
            }
        }
        return count + " labels stored";
    }

    @PostMapping("/shipments/labels/bulk-checked")
    @ResponseBody
    public String bulkUploadChecked(@RequestParam("archive") MultipartFile archive) throws IOException {
        Path incoming = LABEL_DIR.resolve("incoming").toAbsolutePath().normalize();
        try (InputStream in = archive.getInputStream(); ZipInputStream zip = new ZipInputStream(in)) {
            ZipEntry entry;
            while ((entry = zip.getNextEntry()) != null) {
                Path target = incoming.resolve(entry.getName()).normalize(); // safe: path-traversal [zip-checked]
                if (!target.startsWith(incoming)) {
                    throw new IOException("entry outside the target folder: " + entry.getName());
                }
                Files.copy(zip, target); // safe: path-traversal [zip-checked]
            }
        }
        return "ok";
    }
}
