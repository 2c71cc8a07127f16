; Shoebox's Windows installer, built by scripts/package.sh with makensis:
;   makensis -DVERSION=1.2.3 -DSRC=build/windows -DOUTFILE=Shoebox-Setup-1.2.3.exe shoebox.nsi
; Per user, no administrator rights: the program goes to
; %LOCALAPPDATA%\Programs\Shoebox, a Start-menu shortcut with the app's icon
; opens it, and Windows' "Installed apps" lists it for removal. The library
; (%LOCALAPPDATA%\Shoebox, or wherever the user chose) is never touched by
; the uninstaller. /S installs and uninstalls silently.

Unicode true
; 64-bit stub: Shoebox is a 64-bit program, and Wine runs it without 32-bit Wine.
Target amd64-unicode
SetCompressor /SOLID lzma
RequestExecutionLevel user
ManifestDPIAware true

!include "MUI2.nsh"
!include "LogicLib.nsh"
!include "x64.nsh"

!define APP "Shoebox"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Shoebox"

Name "${APP}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\${APP}"
InstallDirRegKey HKCU "${UNINST_KEY}" "InstallLocation"
BrandingText "${APP} ${VERSION}"
VIProductVersion "${NUMVERSION}"
VIAddVersionKey "ProductName" "${APP}"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "FileDescription" "${APP} installer"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "LegalCopyright" ""

!define MUI_ICON "${SRC}\shoebox.ico"
!define MUI_UNICON "${SRC}\shoebox.ico"
!define MUI_FINISHPAGE_RUN "$INSTDIR\shoebox.exe"
!define MUI_FINISHPAGE_RUN_TEXT "Open Shoebox"
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

Function .onInit
  ${IfNot} ${RunningX64}
    MessageBox MB_OK|MB_ICONSTOP "Shoebox needs 64-bit Windows." /SD IDOK
    Abort
  ${EndIf}
FunctionEnd

Section "Shoebox"
  SetOutPath "$INSTDIR"
  File "${SRC}\shoebox.exe"
  File "${SRC}\shoebox.ico"
  SetOutPath "$INSTDIR\lib\ppocr"
  File "${SRC}\lib\ppocr\*.*"
  SetOutPath "$INSTDIR"
  WriteUninstaller "$INSTDIR\Uninstall Shoebox.exe"
  CreateShortcut "$SMPROGRAMS\${APP}.lnk" "$INSTDIR\shoebox.exe" "" "$INSTDIR\shoebox.ico" 0
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayName" "${APP}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\shoebox.ico"
  WriteRegStr HKCU "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "UninstallString" '"$INSTDIR\Uninstall Shoebox.exe"'
  WriteRegStr HKCU "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\Uninstall Shoebox.exe" /S'
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoRepair" 1
  ; ONNX Runtime needs Microsoft's Visual C++ runtime (2015-2022), which
  ; most computers have; it cannot be shipped from here.
  ${IfNot} ${FileExists} "$SYSDIR\vcruntime140_1.dll"
    MessageBox MB_OK|MB_ICONINFORMATION "Shoebox reads receipts with a part that needs Microsoft's Visual C++ Redistributable (x64), which this computer lacks. Install it from https://aka.ms/vs/17/release/vc_redist.x64.exe, then open Shoebox." /SD IDOK
  ${EndIf}
SectionEnd

; Removes the program's own files only: never the library.
Section "Uninstall"
  Delete "$SMPROGRAMS\${APP}.lnk"
  Delete "$INSTDIR\lib\ppocr\ch_PP-OCRv4_det_infer.onnx"
  Delete "$INSTDIR\lib\ppocr\ch_PP-OCRv4_rec_infer.onnx"
  Delete "$INSTDIR\lib\ppocr\ch_ppocr_mobile_v2.0_cls_infer.onnx"
  Delete "$INSTDIR\lib\ppocr\ppocr_keys_v1.txt"
  Delete "$INSTDIR\lib\ppocr\onnxruntime.dll"
  RMDir "$INSTDIR\lib\ppocr"
  RMDir "$INSTDIR\lib"
  Delete "$INSTDIR\shoebox.exe"
  Delete "$INSTDIR\shoebox.ico"
  Delete "$INSTDIR\Uninstall Shoebox.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINST_KEY}"
SectionEnd
